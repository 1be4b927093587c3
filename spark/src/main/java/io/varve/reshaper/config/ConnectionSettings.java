package io.varve.reshaper.config;

import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One side of the job, the {@code source} or {@code target} section: where the database is,
 * how to reach it and which table to read or write. Keys are those of the ScyllaDB migrator.
 *
 * @param side {@code source} or {@code target}
 * @param type {@code type}: {@code cassandra} or {@code scylla} (same behaviour but for
 *     compaction control)
 * @param hosts {@code host}: one address or several separated by commas
 * @param port {@code port}: CQL port, default 9042
 * @param localDC {@code localDC}: the data center to talk to; default: the driver's inference
 * @param username {@code credentials.username}
 * @param password {@code credentials.password}
 * @param ssl {@code sslOptions}
 * @param keyspace {@code keyspace}, required
 * @param table {@code table}, required
 * @param consistencyLevel {@code consistencyLevel}: default LOCAL_QUORUM
 * @param connections {@code connections}: connections per host, default 1 (driver default)
 * @param fetchSize {@code fetchSize}: at most this many rows per page on reads, default 5000
 *     (source only); pages are also kept near 4 MiB
 * @param splitCount {@code splitCount}: token ranges the ring is cut into; 0 = sized to the
 *     cluster (source only)
 * @param preserveTimestamps {@code preserveTimestamps}: keep writetime and TTL (source only)
 * @param where {@code where}: a CQL condition on the source rows (source only)
 * @param writeTtlSeconds {@code writeTTLInS}: a TTL for every written cell, 0 = none (target)
 * @param writeTimestampMicros {@code writeWritetimestampInuS}: a write timestamp for every
 *     written cell, 0 = the server's time (target)
 * @param options {@code options}: any {@code spark.cassandra.*} option for this side only
 */
public record ConnectionSettings(
    String side,
    String type,
    String hosts,
    int port,
    String localDC,
    String username,
    String password,
    SslSettings ssl,
    String keyspace,
    String table,
    String consistencyLevel,
    int connections,
    int fetchSize,
    int splitCount,
    boolean preserveTimestamps,
    String where,
    long writeTtlSeconds,
    long writeTimestampMicros,
    Map<String, String> options) implements Serializable {

  static final List<String> CONSISTENCY_LEVELS = List.of("ANY", "ONE", "TWO", "THREE", "QUORUM",
      "ALL", "LOCAL_QUORUM", "EACH_QUORUM", "LOCAL_ONE");

  private static final Set<String> KEYS = Set.of("type", "host", "port", "localDC",
      "credentials", "sslOptions", "keyspace", "table", "consistencyLevel", "connections",
      "fetchSize", "splitCount", "preserveTimestamps", "where", "writeTTLInS",
      "writeWritetimestampInuS", "options");
  private static final Set<String> TOLERATED = Set.of("stripTrailingZerosForDecimals",
      "dropNullPrimaryKeys");

  static ConnectionSettings read(YamlSection s, String side, List<String> warnings) {
    if (s.raw().isEmpty()) {
      throw new ConfigException(side, "missing", "a section with type, host, keyspace and table");
    }
    warnings.addAll(s.checkKeys(KEYS, TOLERATED));
    String type = s.string("type", "cassandra").trim().toLowerCase();
    if (!type.equals("cassandra") && !type.equals("scylla")) {
      throw new ConfigException(s.key("type"), type, "cassandra or scylla");
    }
    YamlSection credentials = s.section("credentials");
    credentials.checkKeys(Set.of("username", "password"), Set.of());
    String username = credentials.string("username", null);
    String password = credentials.string("password", null);
    if ((username == null) != (password == null)) {
      throw new ConfigException(s.key("credentials"), username == null ? "password only"
          : "username only", "both username and password, or neither");
    }
    String cl = s.string("consistencyLevel", "LOCAL_QUORUM").trim().toUpperCase();
    if (!CONSISTENCY_LEVELS.contains(cl)) {
      throw new ConfigException(s.key("consistencyLevel"), cl,
          "one of " + String.join(", ", CONSISTENCY_LEVELS));
    }
    Map<String, String> options = new LinkedHashMap<>();
    s.section("options").raw().forEach((k, v) -> {
      if (!k.startsWith("spark.cassandra.")) {
        throw new ConfigException(s.key("options") + "." + k, v, "a spark.cassandra.* option");
      }
      options.put(k, String.valueOf(v));
    });
    boolean isSource = side.equals("source");
    for (String sourceOnly : List.of("splitCount", "preserveTimestamps", "where", "fetchSize")) {
      if (!isSource && s.has(sourceOnly)) {
        throw new ConfigException(s.key(sourceOnly), s.raw().get(sourceOnly),
            "no value: this key belongs to the source section");
      }
    }
    for (String targetOnly : List.of("writeTTLInS", "writeWritetimestampInuS")) {
      if (isSource && s.has(targetOnly)) {
        throw new ConfigException(s.key(targetOnly), s.raw().get(targetOnly),
            "no value: this key belongs to the target section");
      }
    }
    String where = s.string("where", null);
    return new ConnectionSettings(side, type,
        s.requiredString("host", "an address like 10.0.0.1 or a list like 10.0.0.1,10.0.0.2"),
        s.integer("port", 9042, 1, 65535),
        s.string("localDC", null), username, password, SslSettings.read(s.section("sslOptions")),
        s.requiredString("keyspace", "a keyspace name"), s.requiredString("table", "a table name"),
        cl, s.integer("connections", 1, 1, 64), s.integer("fetchSize", 5000, 1, 100_000),
        s.integer("splitCount", 0, 0, 1_000_000), s.bool("preserveTimestamps", false),
        where == null || where.isBlank() ? null : where.trim(),
        s.number("writeTTLInS", 0, 0, Integer.MAX_VALUE),
        s.number("writeWritetimestampInuS", 0, 0, Long.MAX_VALUE), Map.copyOf(options));
  }

  /** {@code keyspace.table} as written in the configuration. */
  public String qualifiedTable() {
    return keyspace + "." + table;
  }

  /** True when compaction is controlled the ScyllaDB way. */
  public boolean isScylla() {
    return type.equals("scylla");
  }

  /**
   * The connector options of this side: {@code common} ({@code spark.cassandra.*} options of
   * the whole job) overridden by this section's keys and its {@code options}.
   */
  public Map<String, String> connectorOptions(Map<String, String> common) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("spark.cassandra.connection.compression", "LZ4");
    common.forEach((k, v) -> {
      if (k.startsWith("spark.cassandra.")) {
        o.put(k, v);
      }
    });
    o.put("spark.cassandra.connection.host", hosts);
    o.put("spark.cassandra.connection.port", Integer.toString(port));
    if (localDC != null) {
      o.put("spark.cassandra.connection.localDC", localDC);
    }
    if (username != null) {
      o.put("spark.cassandra.auth.username", username);
      o.put("spark.cassandra.auth.password", password);
    }
    o.putAll(ssl.connectorOptions());
    o.put("spark.cassandra.connection.localConnectionsPerExecutor", Integer.toString(connections));
    o.put("spark.cassandra.input.consistency.level", consistencyLevel);
    o.put("spark.cassandra.output.consistency.level", consistencyLevel);
    o.putAll(options);
    return o;
  }

  /** This section for logs: every value but passwords. */
  public String redacted() {
    return side + ": {type: " + type + ", host: " + hosts + ", port: " + port + ", localDC: "
        + localDC + ", credentials: " + (username == null ? "none" : username + "/****")
        + ", ssl: " + ssl.enabled() + ", table: " + qualifiedTable() + ", consistencyLevel: "
        + consistencyLevel + (where == null ? "" : ", where: " + where) + "}";
  }
}
