package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.plan.TableSchema.Column;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * How a job writes its target: where each target column's value comes from, and the upserts. Built
 * by the third step of a plan ({@link #of}).
 *
 * @param table the target table in CQL form, {@code keyspace.table}
 * @param columns the target columns, partition key first, then clustering, then others
 * @param partitionKeyCount how many leading columns form the partition key
 * @param primaryKeyCount how many leading columns form the primary key
 * @param insertCql the upsert of one target row, with every target column
 * @param insertWithTimestampCql the same with {@code USING TIMESTAMP ? AND TTL ?}
 */
public record TargetLayout(
    String table,
    List<TargetColumn> columns,
    int partitionKeyCount,
    int primaryKeyCount,
    String insertCql,
    String insertWithTimestampCql)
    implements Serializable {

  /**
   * Fills every target column from a source column of the select list or a constant, keeping
   * writetime and TTL of regular columns when {@code preserveTimestamps}; a column the mapping
   * computes per row has neither (it is set after the others, {@link SliceKeys}).
   */
  static TargetLayout of(
      TableSchema target, ColumnMapping mapping, SelectList select, boolean preserveTimestamps) {
    List<TargetColumn> columns = new ArrayList<>();
    for (Column t : target.columns()) {
      CqlIdentifier from = mapping.sourceOf(t.name());
      byte[] constant = mapping.constants().get(t.name());
      if (from == null && constant == null && !mapping.computed().contains(t.name())) {
        throw new ConfigException(
            "target column " + t.cql(),
            "no source",
            (target.isKey(t.name()) ? "a value for this primary-key column: " : "a value: ")
                + "a source column of the same name, a renames entry with to: "
                + t.cql()
                + ", or a constants entry");
      }
      boolean keepTimes = preserveTimestamps && from != null && !target.isKey(t.name());
      columns.add(
          new TargetColumn(
              t.cql(),
              t.type(),
              from == null ? -1 : select.indexOf(from),
              constant,
              keepTimes ? select.writetimeIndex().getOrDefault(from, -1) : -1,
              keepTimes ? select.ttlIndex().getOrDefault(from, -1) : -1));
    }
    String names = columns.stream().map(TargetColumn::name).collect(Collectors.joining(", "));
    String markers = columns.stream().map(c -> "?").collect(Collectors.joining(", "));
    String insert =
        "INSERT INTO " + target.qualified() + " (" + names + ") VALUES (" + markers + ")";
    return new TargetLayout(
        target.qualified(),
        List.copyOf(columns),
        target.partitionKey().size(),
        target.primaryKey().size(),
        insert,
        insert + " USING TIMESTAMP ? AND TTL ?");
  }

  /** The scan of the target's primary keys in one token range (for validation). */
  public String keyScanCql() {
    StringBuilder keys = new StringBuilder();
    StringBuilder partition = new StringBuilder();
    for (int i = 0; i < primaryKeyCount; i++) {
      keys.append(i == 0 ? "" : ", ").append(columns.get(i).name());
      if (i < partitionKeyCount) {
        partition.append(i == 0 ? "" : ", ").append(columns.get(i).name());
      }
    }
    return "SELECT "
        + keys
        + " FROM "
        + table
        + " WHERE token("
        + partition
        + ") > ? AND token("
        + partition
        + ") <= ?";
  }

  /** The columns' names as a file or another database writes them: CQL's internal form. */
  public List<String> internalNames() {
    return columns.stream().map(c -> CqlIdentifier.fromCql(c.name()).asInternal()).toList();
  }

  /** The columns' types, in column order. */
  public List<DataType> types() {
    return columns.stream().map(TargetColumn::type).toList();
  }

  /** The index of column {@code name}, or -1. */
  int indexOf(CqlIdentifier name) {
    for (int i = 0; i < columns.size(); i++) {
      if (columns.get(i).name().equals(name.asCql(true))) {
        return i;
      }
    }
    return -1;
  }

  /**
   * The select statement of a target row by its primary key (for validation): every column, then
   * the {@code WRITETIME} and {@code TTL} of each column whose source writetime is read, in column
   * order.
   */
  public String lookupCql() {
    StringBuilder cql = new StringBuilder("SELECT ");
    for (int i = 0; i < columns.size(); i++) {
      cql.append(i == 0 ? "" : ", ").append(columns.get(i).name());
    }
    for (TargetColumn c : columns) {
      if (c.writetimeIndex() >= 0) {
        cql.append(", WRITETIME(").append(c.name()).append("), TTL(").append(c.name()).append(')');
      }
    }
    cql.append(" FROM ").append(table).append(" WHERE ");
    for (int i = 0; i < primaryKeyCount; i++) {
      cql.append(i == 0 ? "" : " AND ").append(columns.get(i).name()).append(" = ?");
    }
    return cql.toString();
  }
}
