package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.config.OnConflict;
import io.varve.reshaper.plan.TableSchema.Column;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The second step of a plan: what the range scan reads. The source partition key comes first
 * (partition boundaries are seen by it), then every copied column, then {@code WRITETIME} and
 * {@code TTL} of the copied regular columns when timestamps are kept or compared.
 *
 * @param columns the plain columns read, in select order
 * @param expressions the select list: those columns, then the writetime and TTL expressions
 * @param writetimeIndex the select position of each column's {@code WRITETIME}
 * @param ttlIndex the select position of each column's {@code TTL}
 */
record SelectList(
    List<CqlIdentifier> columns,
    List<String> expressions,
    Map<CqlIdentifier, Integer> writetimeIndex,
    Map<CqlIdentifier, Integer> ttlIndex) {

  static SelectList of(
      JobConfig config, TableSchema source, ColumnMapping mapping, boolean compareTimes) {
    List<CqlIdentifier> selected =
        source.columns().stream()
            .map(Column::name)
            .filter(mapping.sourceToTarget()::containsKey)
            .toList();
    List<CqlIdentifier> columns = new ArrayList<>();
    source.partitionKey().forEach(c -> columns.add(c.name()));
    selected.stream().filter(c -> !columns.contains(c)).forEach(columns::add);
    List<String> expressions = new ArrayList<>();
    columns.forEach(c -> expressions.add(c.asCql(true)));

    OnConflict rule = config.reshape().onConflict();
    boolean preserve = config.source().preserveTimestamps();
    boolean newestRule = rule == OnConflict.KEEP_NEWEST_WRITETIME;
    Map<CqlIdentifier, Integer> writetimes = new LinkedHashMap<>();
    Map<CqlIdentifier, Integer> ttls = new LinkedHashMap<>();
    for (CqlIdentifier c : selected) {
      if (source.isKey(c) || !(preserve || newestRule || compareTimes)) {
        continue;
      }
      DataType type = source.column(c).orElseThrow().type();
      if (isNonFrozenMultiCell(type)) {
        if (preserve && config.nonFrozenCollections() == JobConfig.CollectionTimestamps.FAIL) {
          throw new ConfigException(
              "source.preserveTimestamps",
              "true",
              "no non-frozen collection or UDT columns, but "
                  + c.asCql(true)
                  + " is "
                  + type.asCql(true, true)
                  + ": its elements have a writetime each."
                  + " Set timestamps.nonFrozenCollections: currentTime to write it at the job's"
                  + " time, or set preserveTimestamps: false");
        }
        continue;
      }
      writetimes.put(c, expressions.size());
      expressions.add("WRITETIME(" + c.asCql(true) + ")");
      ttls.put(c, expressions.size());
      expressions.add("TTL(" + c.asCql(true) + ")");
    }
    if (newestRule && writetimes.isEmpty()) {
      throw new ConfigException(
          "reshape.onConflict",
          rule,
          "a rule that needs no writetime: source table "
              + config.source().qualifiedTable()
              + " has no copied regular column whose writetime can be read (keepMax/keepMin)");
    }
    return new SelectList(List.copyOf(columns), List.copyOf(expressions), writetimes, ttls);
  }

  /** The select position of a plain column, or -1. */
  int indexOf(CqlIdentifier column) {
    return columns.indexOf(column);
  }

  /** The scan of one token range of {@code source}, filtered by {@code where} when given. */
  SourceScan scan(TableSchema source, String where) {
    String partition =
        source.partitionKey().stream().map(Column::cql).collect(Collectors.joining(", "));
    String cql =
        "SELECT "
            + String.join(", ", expressions)
            + " FROM "
            + source.qualified()
            + " WHERE token("
            + partition
            + ") > ? AND token("
            + partition
            + ") <= ?"
            + (where == null ? "" : " AND " + where + " ALLOW FILTERING");
    return new SourceScan(
        cql,
        source.partitionKey().size(),
        columns.stream().map(CqlIdentifier::asInternal).toList(),
        columns.stream().map(c -> source.column(c).orElseThrow().type()).toList());
  }

  private static boolean isNonFrozenMultiCell(DataType type) {
    return (type instanceof ListType l && !l.isFrozen())
        || (type instanceof SetType s && !s.isFrozen())
        || (type instanceof MapType m && !m.isFrozen())
        || (type instanceof UserDefinedType u && !u.isFrozen());
  }
}
