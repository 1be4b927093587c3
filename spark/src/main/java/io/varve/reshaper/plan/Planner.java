package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.metadata.schema.ColumnMetadata;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.ListType;
import com.datastax.oss.driver.api.core.type.MapType;
import com.datastax.oss.driver.api.core.type.SetType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.config.OnConflict;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Checks a job against the source and target schemas and builds its {@link MigrationPlan}.
 * Every refusal is a {@link ConfigException} naming the key, the value and what was expected,
 * raised before anything is written.
 */
public final class Planner {

  private final JobConfig config;
  private final TableMetadata source;
  private final TableMetadata target;

  /** A planner of {@code config} from {@code source} to {@code target}. */
  public Planner(JobConfig config, TableMetadata source, TableMetadata target) {
    this.config = config;
    this.source = source;
    this.target = target;
  }

  /** Checks everything and returns the plan. */
  public MigrationPlan plan() {
    if (isCounterTable(source) || isCounterTable(target)) {
      throw new ConfigException("target.table", config.target().qualifiedTable(),
          "a table without counter columns (counter tables are not supported)");
    }
    Map<CqlIdentifier, CqlIdentifier> sourceToTarget = mapSourceColumns();
    Map<CqlIdentifier, byte[]> constants = encodeConstants(sourceToTarget);

    List<ColumnMetadata> sourceOrder = orderedColumns(source);
    List<CqlIdentifier> selected = new ArrayList<>();
    for (ColumnMetadata c : sourceOrder) {
      if (sourceToTarget.containsKey(c.getName())) {
        selected.add(c.getName());
      }
    }
    // The source partition key is always read first: partition boundaries are seen by it.
    List<CqlIdentifier> select = new ArrayList<>();
    for (ColumnMetadata c : source.getPartitionKey()) {
      select.add(c.getName());
    }
    for (CqlIdentifier c : selected) {
      if (!select.contains(c)) {
        select.add(c);
      }
    }
    OnConflict rule = config.reshape().onConflict();
    boolean preserve = config.source().preserveTimestamps();
    List<String> selectExpressions = new ArrayList<>();
    for (CqlIdentifier c : select) {
      selectExpressions.add(c.asCql(true));
    }
    Map<CqlIdentifier, Integer> writetimeIndex = new LinkedHashMap<>();
    Map<CqlIdentifier, Integer> ttlIndex = new LinkedHashMap<>();
    boolean newestRule = rule == OnConflict.KEEP_NEWEST_WRITETIME;
    for (CqlIdentifier c : selected) {
      ColumnMetadata column = source.getColumn(c).orElseThrow();
      if (isKey(source, c) || !(preserve || newestRule)) {
        continue;
      }
      if (isNonFrozenMultiCell(column.getType())) {
        if (preserve && config.nonFrozenCollections() == JobConfig.CollectionTimestamps.FAIL) {
          throw new ConfigException("source.preserveTimestamps", "true",
              "no non-frozen collection or UDT columns, but " + c.asCql(true) + " is "
                  + column.getType().asCql(true, true) + ": its elements have a writetime each."
                  + " Set timestamps.nonFrozenCollections: currentTime to write it at the job's"
                  + " time, or set preserveTimestamps: false");
        }
        continue;
      }
      writetimeIndex.put(c, selectExpressions.size());
      selectExpressions.add("WRITETIME(" + c.asCql(true) + ")");
      ttlIndex.put(c, selectExpressions.size());
      selectExpressions.add("TTL(" + c.asCql(true) + ")");
    }
    if (newestRule && writetimeIndex.isEmpty()) {
      throw new ConfigException("reshape.onConflict", rule,
          "a rule that needs no writetime: source table " + config.source().qualifiedTable()
              + " has no copied regular column whose writetime can be read (keepMax/keepMin)");
    }

    List<TargetColumn> targetColumns = new ArrayList<>();
    Map<CqlIdentifier, CqlIdentifier> targetToSource = new LinkedHashMap<>();
    sourceToTarget.forEach((s, t) -> targetToSource.put(t, s));
    for (ColumnMetadata t : orderedColumns(target)) {
      CqlIdentifier from = targetToSource.get(t.getName());
      byte[] constant = constants.get(t.getName());
      if (from == null && constant == null) {
        boolean key = isKey(target, t.getName());
        throw new ConfigException("target column " + t.getName().asCql(true), "no source",
            (key ? "a value for this primary-key column: " : "a value: ")
                + "a source column of the same name, a renames entry with to: "
                + t.getName().asCql(true) + ", or a constants entry");
      }
      boolean keepTimes = preserve && from != null && !isKey(target, t.getName());
      targetColumns.add(new TargetColumn(t.getName().asCql(true), t.getType(),
          from == null ? -1 : select.indexOf(from), constant,
          keepTimes ? writetimeIndex.getOrDefault(from, -1) : -1,
          keepTimes ? ttlIndex.getOrDefault(from, -1) : -1));
    }
    int targetPk = target.getPrimaryKey().size();
    int targetPartitionKeys = target.getPartitionKey().size();

    Set<CqlIdentifier> targetKey = target.getPrimaryKey().stream().map(ColumnMetadata::getName)
        .collect(Collectors.toSet());
    boolean allSourceKeysInTargetKey = source.getPrimaryKey().stream()
        .allMatch(c -> targetKey.contains(sourceToTarget.get(c.getName())));
    boolean sourcePartitionInTargetKey = source.getPartitionKey().stream()
        .allMatch(c -> targetKey.contains(sourceToTarget.get(c.getName())));
    Set<CqlIdentifier> sourcePartition = source.getPartitionKey().stream()
        .map(c -> sourceToTarget.get(c.getName())).collect(Collectors.toSet());
    boolean grouped = target.getPartitionKey().stream()
        .allMatch(c -> sourcePartition.contains(c.getName()) || constants.containsKey(c.getName()));

    CopyMode mode;
    if (allSourceKeysInTargetKey) {
      mode = CopyMode.DIRECT;
      rule = null;
    } else if (rule == null) {
      throw new ConfigException("reshape.onConflict", "missing",
          "a rule (keepMax, keepMin, keepNewestWritetime or fail): the target primary key ("
              + names(target.getPrimaryKey()) + ") does not hold every source primary-key column ("
              + names(source.getPrimaryKey()) + "), so several source rows can land on one"
              + " target row");
    } else {
      mode = sourcePartitionInTargetKey ? CopyMode.IN_PARTITION : CopyMode.SHUFFLE;
    }

    int ruleColumn = -1;
    DataType ruleType = null;
    if (rule != null && rule.needsColumn()) {
      CqlIdentifier id = CqlIdentifier.fromCql(config.reshape().column());
      ColumnMetadata column = target.getColumn(id).orElseThrow(() -> new ConfigException(
          "reshape.column", config.reshape().column(),
          "a column of target table " + config.target().qualifiedTable() + ": " + names(orderedColumns(target))));
      ruleType = column.getType();
      Class<?> javaType = CodecRegistry.DEFAULT.codecFor(ruleType).getJavaType().getRawType();
      if (!Comparable.class.isAssignableFrom(javaType) || ruleType.equals(DataTypes.DURATION)) {
        throw new ConfigException("reshape.column", config.reshape().column(),
            "a column of an ordered type (number, text, timestamp, date, time, uuid, inet,"
                + " boolean, blob), but it is " + ruleType.asCql(true, true));
      }
      for (int i = 0; i < targetColumns.size(); i++) {
        if (targetColumns.get(i).name().equals(id.asCql(true))) {
          ruleColumn = i;
        }
      }
    }
    int[] newest = newestRule
        ? writetimeIndex.values().stream().mapToInt(Integer::intValue).toArray() : new int[0];

    String partitionTokens = source.getPartitionKey().stream()
        .map(c -> c.getName().asCql(true)).collect(Collectors.joining(", "));
    String sourceTable = config.source().keyspace() + "." + config.source().table();
    String selectCql = "SELECT " + String.join(", ", selectExpressions) + " FROM "
        + qualified(source) + " WHERE token(" + partitionTokens + ") > ? AND token("
        + partitionTokens + ") <= ?"
        + (config.source().where() == null ? ""
            : " AND " + config.source().where() + " ALLOW FILTERING");
    String columns = targetColumns.stream().map(TargetColumn::name)
        .collect(Collectors.joining(", "));
    String markers = targetColumns.stream().map(c -> "?").collect(Collectors.joining(", "));
    String insert = "INSERT INTO " + qualified(target) + " (" + columns + ") VALUES (" + markers
        + ")";
    return new MigrationPlan(selectCql, source.getPartitionKey().size(),
        List.copyOf(targetColumns), targetPartitionKeys, targetPk, qualified(target), insert,
        insert + " USING TIMESTAMP ? AND TTL ?", mode, rule, ruleColumn, ruleType, newest,
        grouped, fingerprint(sourceTable, selectCql, insert, rule));
  }

  private Map<CqlIdentifier, CqlIdentifier> mapSourceColumns() {
    Map<CqlIdentifier, CqlIdentifier> renames = new LinkedHashMap<>();
    List<JobConfig.Rename> list = config.renames();
    for (int i = 0; i < list.size(); i++) {
      JobConfig.Rename r = list.get(i);
      CqlIdentifier from = CqlIdentifier.fromCql(r.from());
      CqlIdentifier to = CqlIdentifier.fromCql(r.to());
      if (source.getColumn(from).isEmpty()) {
        throw new ConfigException("renames[" + i + "].from", r.from(), "a column of source table "
            + config.source().qualifiedTable() + ": " + names(orderedColumns(source)));
      }
      if (target.getColumn(to).isEmpty()) {
        throw new ConfigException("renames[" + i + "].to", r.to(), "a column of target table "
            + config.target().qualifiedTable() + ": " + names(orderedColumns(target)));
      }
      if (renames.put(from, to) != null) {
        throw new ConfigException("renames[" + i + "].from", r.from(),
            "a column renamed only once");
      }
    }
    Set<CqlIdentifier> dropped = new java.util.HashSet<>();
    for (int i = 0; i < config.drop().size(); i++) {
      CqlIdentifier d = CqlIdentifier.fromCql(config.drop().get(i));
      if (source.getColumn(d).isEmpty()) {
        throw new ConfigException("drop[" + i + "]", config.drop().get(i),
            "a column of source table " + config.source().qualifiedTable() + ": "
                + names(orderedColumns(source)));
      }
      if (renames.containsKey(d)) {
        throw new ConfigException("drop[" + i + "]", config.drop().get(i),
            "a column that is not also renamed");
      }
      dropped.add(d);
    }
    Map<CqlIdentifier, CqlIdentifier> mapping = new LinkedHashMap<>();
    Map<CqlIdentifier, CqlIdentifier> filled = new LinkedHashMap<>();
    for (ColumnMetadata c : orderedColumns(source)) {
      if (dropped.contains(c.getName())) {
        continue;
      }
      CqlIdentifier to = renames.getOrDefault(c.getName(), c.getName());
      ColumnMetadata t = target.getColumn(to).orElseThrow(() -> new ConfigException(
          "source column " + c.getName().asCql(true), "no target column " + to.asCql(true),
          "a column of target table " + config.target().qualifiedTable() + " ("
              + names(orderedColumns(target)) + "): add a renames entry, or list it under drop"));
      if (!sameType(c.getType(), t.getType())) {
        throw new ConfigException("target column " + to.asCql(true),
            t.getType().asCql(true, true), "the type of source column "
                + c.getName().asCql(true) + ", " + c.getType().asCql(true, true)
                + " (type mismatch)");
      }
      CqlIdentifier other = filled.put(to, c.getName());
      if (other != null) {
        throw new ConfigException("target column " + to.asCql(true), "filled by source columns "
            + other.asCql(true) + " and " + c.getName().asCql(true), "one source column");
      }
      mapping.put(c.getName(), to);
    }
    return mapping;
  }

  private Map<CqlIdentifier, byte[]> encodeConstants(Map<CqlIdentifier, CqlIdentifier> mapping) {
    Map<CqlIdentifier, byte[]> encoded = new LinkedHashMap<>();
    config.constants().forEach((name, literal) -> {
      CqlIdentifier id = CqlIdentifier.fromCql(name);
      ColumnMetadata t = target.getColumn(id).orElseThrow(() -> new ConfigException(
          "constants." + name, literal, "a column of target table "
              + config.target().qualifiedTable() + ": " + names(orderedColumns(target))));
      if (mapping.containsValue(id)) {
        throw new ConfigException("constants." + name, literal,
            "a target column that no source column fills already");
      }
      encoded.put(id, encode(t.getType(), name, literal));
    });
    return encoded;
  }

  static byte[] encode(DataType type, String name, String literal) {
    TypeCodec<Object> codec = CodecRegistry.DEFAULT.codecFor(type);
    Object value;
    try {
      value = codec.parse(literal);
    } catch (RuntimeException first) {
      try {
        value = codec.parse("'" + literal.replace("'", "''") + "'");
      } catch (RuntimeException second) {
        throw new ConfigException("constants." + name, literal,
            "a CQL literal of type " + type.asCql(true, true));
      }
    }
    ByteBuffer bytes = codec.encode(value, ProtocolVersion.DEFAULT);
    byte[] out = new byte[bytes.remaining()];
    bytes.duplicate().get(out);
    return out;
  }

  private static boolean sameType(DataType a, DataType b) {
    if (a instanceof UserDefinedType ua && b instanceof UserDefinedType ub) {
      return ua.getFieldNames().equals(ub.getFieldNames())
          && ua.getFieldTypes().equals(ub.getFieldTypes()) && ua.isFrozen() == ub.isFrozen();
    }
    return a.equals(b);
  }

  private static boolean isNonFrozenMultiCell(DataType type) {
    return (type instanceof ListType l && !l.isFrozen()) || (type instanceof SetType s && !s.isFrozen())
        || (type instanceof MapType m && !m.isFrozen())
        || (type instanceof UserDefinedType u && !u.isFrozen());
  }

  private static boolean isCounterTable(TableMetadata table) {
    return table.getColumns().values().stream().anyMatch(c -> c.getType().equals(DataTypes.COUNTER));
  }

  private static boolean isKey(TableMetadata table, CqlIdentifier column) {
    return table.getPrimaryKey().stream().anyMatch(c -> c.getName().equals(column));
  }

  private static List<ColumnMetadata> orderedColumns(TableMetadata table) {
    List<ColumnMetadata> ordered = new ArrayList<>(table.getPrimaryKey());
    for (ColumnMetadata c : table.getColumns().values()) {
      if (!ordered.contains(c)) {
        ordered.add(c);
      }
    }
    return ordered;
  }

  private static String qualified(TableMetadata table) {
    return table.getKeyspace().asCql(true) + "." + table.getName().asCql(true);
  }

  private static String names(List<ColumnMetadata> columns) {
    return columns.stream().map(c -> c.getName().asCql(true)).collect(Collectors.joining(", "));
  }

  private static String fingerprint(String... parts) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      for (String part : parts) {
        digest.update(String.valueOf(part).getBytes(StandardCharsets.UTF_8));
        digest.update((byte) 0);
      }
      return HexFormat.of().formatHex(digest.digest()).substring(0, 16);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }

  private static String fingerprint(String table, String select, String insert, OnConflict rule) {
    return fingerprint(new String[] {table, select, insert, String.valueOf(rule)});
  }
}
