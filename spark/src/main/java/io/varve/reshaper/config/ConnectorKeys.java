package io.varve.reshaper.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * The Spark Cassandra connector's tuning keys that ScyllaDB migrator users set (in the job file's
 * {@code spark} section, a side's {@code options}, or {@code spark-submit --conf}), mapped to the
 * reshaper's own keys: the reshaper reads and writes with its own code, not the connector's, so
 * these keys would otherwise do nothing. A key of the job file itself wins over a connector key,
 * which then is named in a warning; a side's {@code options} win over the common ones, and {@code
 * spark-submit --conf} over the {@code spark} section. A connector tuning key with no counterpart
 * is named in a warning. docs/reshaper.md, "The connector's tuning keys", is the table.
 */
public final class ConnectorKeys {

  /** A connector key and the reshaper key it sets. */
  private record Mapped(String connectorKey, String section, String key, int min, int max) {}

  private static final List<Mapped> MAPPED =
      List.of(
          new Mapped("spark.cassandra.output.concurrent.writes", "writer", "maxInFlight", 1, 4096),
          new Mapped("spark.cassandra.output.batch.size.rows", "writer", "batchRows", 1, 1000),
          new Mapped("spark.cassandra.output.batch.size.bytes", "writer", "batchBytes", 1, 1 << 20),
          new Mapped("spark.cassandra.input.fetch.size_in_rows", "source", "fetchSize", 1, 100_000),
          new Mapped(
              "spark.cassandra.input.split.size_in_mb", "source", "splitSizeInMB", 1, 1_000_000),
          new Mapped(
              "spark.cassandra.input.split.sizeInMB", "source", "splitSizeInMB", 1, 1_000_000));

  static final String GROUPING = "spark.cassandra.output.batch.grouping.key";

  /** Connector tuning keys the reshaper has no counterpart of, and why. */
  static final Map<String, String> UNMAPPED =
      Map.of(
          "spark.cassandra.output.throughput_mb_per_sec",
          "rateLimit.megabytesPerSecond caps the whole job's write rate",
          "spark.cassandra.output.batch.buffer.size",
          "the writer packs batches by replicas as rows come",
          "spark.cassandra.output.ignoreNulls",
          "the copy writes every column of a row as read");

  /** Every connector tuning key this class knows: those it maps and those it warns about. */
  public static final java.util.Set<String> TUNING = tuning();

  private ConnectorKeys() {}

  private static java.util.Set<String> tuning() {
    java.util.Set<String> keys = new java.util.TreeSet<>(UNMAPPED.keySet());
    MAPPED.forEach(m -> keys.add(m.connectorKey()));
    keys.add(GROUPING);
    return java.util.Collections.unmodifiableSet(keys);
  }

  /**
   * Sets in {@code root} (the job file as parsed) the reshaper keys that connector keys ask for,
   * where the file does not set them; returns the warnings to print.
   *
   * @param submitted the {@code spark.*} properties given to Spark itself (system properties)
   * @throws ConfigException naming a connector key whose value is out of range
   */
  @SuppressWarnings("unchecked")
  static List<String> apply(Object root, Properties submitted) {
    List<String> warnings = new ArrayList<>();
    if (!(root instanceof Map<?, ?> top)) {
      return warnings;
    }
    Map<String, Object> file = (Map<String, Object>) top;
    Map<String, String> common = new LinkedHashMap<>(strings(file.get("spark")));
    for (String name : submitted.stringPropertyNames()) {
      if (name.startsWith("spark.cassandra.")) {
        common.put(name, submitted.getProperty(name));
      }
    }
    for (Mapped m : MAPPED) {
      String sideName = m.section().equals("source") ? "source" : "target";
      Map<String, String> side = strings(section(file, sideName).get("options"));
      String raw =
          side.containsKey(m.connectorKey())
              ? side.get(m.connectorKey())
              : common.get(m.connectorKey());
      if (raw == null || raw.equalsIgnoreCase("auto")) {
        continue;
      }
      int value = integer(m, raw);
      Map<String, Object> section = section(file, m.section());
      if (section.containsKey(m.key())) {
        warnings.add(
            m.connectorKey()
                + " has no effect: "
                + m.section()
                + "."
                + m.key()
                + " is set in the job file and wins");
      } else {
        sectionForWrite(file, m.section()).put(m.key(), value);
      }
    }
    String grouping =
        strings(section(file, "target").get("options"))
            .getOrDefault(GROUPING, common.get(GROUPING));
    if (grouping != null) {
      grouping(file, grouping.trim().toLowerCase(Locale.ROOT), warnings);
    }
    for (Map.Entry<String, String> e : UNMAPPED.entrySet()) {
      if (common.containsKey(e.getKey())
          || strings(section(file, "source").get("options")).containsKey(e.getKey())
          || strings(section(file, "target").get("options")).containsKey(e.getKey())) {
        warnings.add(e.getKey() + " has no effect here: " + e.getValue());
      }
    }
    return warnings;
  }

  /** {@code partition}: one partition per batch; {@code replica_set}: the default; {@code none}. */
  private static void grouping(Map<String, Object> file, String value, List<String> warnings) {
    switch (value) {
      case "partition" -> {
        if (section(file, "writer").containsKey("batchPartitions")) {
          warnings.add(
              GROUPING + " has no effect: writer.batchPartitions is set in the job file and wins");
        } else {
          sectionForWrite(file, "writer").put("batchPartitions", 1);
        }
      }
      case "replica_set" -> {} // how the writer packs batches anyway
      case "none" ->
          warnings.add(
              GROUPING
                  + ": none has no effect: batches always hold rows of partitions with the same"
                  + " replicas (writer.batchPartitions: 1 for one partition per batch)");
      default -> throw new ConfigException(GROUPING, value, "partition, replica_set or none");
    }
  }

  private static int integer(Mapped m, String raw) {
    try {
      int value = Integer.parseInt(raw.trim());
      if (value >= m.min() && value <= m.max()) {
        return value;
      }
    } catch (NumberFormatException e) {
      // refused below
    }
    throw new ConfigException(
        m.connectorKey(),
        raw,
        "an integer "
            + m.min()
            + ".."
            + m.max()
            + " (it sets "
            + m.section()
            + "."
            + m.key()
            + ")");
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> section(Map<String, Object> file, String name) {
    return file.get(name) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> sectionForWrite(Map<String, Object> file, String name) {
    Object section = file.get(name);
    if (section instanceof Map<?, ?> m) {
      Map<String, Object> copy = new LinkedHashMap<>((Map<String, Object>) m);
      file.put(name, copy);
      return copy;
    }
    Map<String, Object> created = new LinkedHashMap<>();
    file.put(name, created);
    return created;
  }

  private static Map<String, String> strings(Object section) {
    Map<String, String> out = new LinkedHashMap<>();
    if (section instanceof Map<?, ?> m) {
      m.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
    }
    return out;
  }
}
