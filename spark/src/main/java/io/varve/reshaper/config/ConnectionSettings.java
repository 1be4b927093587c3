package io.varve.reshaper.config;

import static io.varve.reshaper.config.JobOptions.CONNECTIONS;
import static io.varve.reshaper.config.JobOptions.CONNECTOR_OPTIONS;
import static io.varve.reshaper.config.JobOptions.CONSISTENCY_LEVEL;
import static io.varve.reshaper.config.JobOptions.FETCH_SIZE;
import static io.varve.reshaper.config.JobOptions.HOST;
import static io.varve.reshaper.config.JobOptions.KEYSPACE;
import static io.varve.reshaper.config.JobOptions.LOCAL_DC;
import static io.varve.reshaper.config.JobOptions.PASSWORD;
import static io.varve.reshaper.config.JobOptions.PORT;
import static io.varve.reshaper.config.JobOptions.PRESERVE_TIMESTAMPS;
import static io.varve.reshaper.config.JobOptions.SPLIT_COUNT;
import static io.varve.reshaper.config.JobOptions.SPLIT_SIZE;
import static io.varve.reshaper.config.JobOptions.TABLE;
import static io.varve.reshaper.config.JobOptions.TYPE;
import static io.varve.reshaper.config.JobOptions.USERNAME;
import static io.varve.reshaper.config.JobOptions.WHERE;
import static io.varve.reshaper.config.JobOptions.WRITE_TIMESTAMP;
import static io.varve.reshaper.config.JobOptions.WRITE_TTL;
import static io.varve.reshaper.config.JobOptions.value;

import io.varve.options.Option;
import io.varve.options.OptionValues;
import java.io.Serializable;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One side of the job, the {@code source} or {@code target} section: where the database is, how to
 * reach it and which table to read or write. Keys are those of the ScyllaDB migrator; each is
 * described, with its default and range, by its option in {@link JobOptions}.
 *
 * @param side {@code source} or {@code target}
 * @param type {@code type}: {@code cassandra} or {@code scylla} (same behaviour but for compaction
 *     control)
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
 * @param splitCount {@code splitCount}: token ranges the ring is cut into; 0 = sized to the cluster
 * @param splitSizeMb {@code splitSizeInMB}: with splitCount 0, ranges of about this many MiB of the
 *     table; 0 = none (source only)
 * @param preserveTimestamps {@code preserveTimestamps}: keep writetime and TTL (source only)
 * @param where {@code where}: a CQL condition on the source rows (source only)
 * @param writeTtlSeconds {@code writeTTLInS}: a TTL for every written cell, 0 = none (target)
 * @param writeTimestampMicros {@code writeWritetimestampInuS}: a write timestamp for every written
 *     cell, 0 = the server's time (target)
 * @param options {@code options}: any {@code spark.cassandra.*} option for this side only
 * @param parquet the side's files when its type is {@code parquet}, else null; then the keys above
 *     are their defaults and have no meaning
 * @param dynamodb the side's table when its type is {@code dynamodb}, else null; likewise
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
    int splitSizeMb,
    boolean preserveTimestamps,
    String where,
    long writeTtlSeconds,
    long writeTimestampMicros,
    Map<String, String> options,
    ParquetSettings parquet,
    DynamoDbSettings dynamodb)
    implements Serializable {

  /**
   * The side {@code side} from its section's values; adds a warning for each key that has no
   * effect, and refuses a key of the other side.
   */
  static ConnectionSettings read(OptionValues s, String side, List<String> warnings) {
    if (JobOptions.PARQUET_TYPE.equals(value(s, TYPE))) {
      return other(side, JobOptions.PARQUET_TYPE, ParquetSettings.read(s), null);
    }
    if (JobOptions.DYNAMODB_TYPE.equals(value(s, TYPE))) {
      warnings.addAll(JobOptions.warnings(s, JobOptions.IGNORED_SIDE));
      warnings.addAll(JobOptions.warnings(s, JobOptions.IGNORED_DYNAMODB));
      return other(
          side, JobOptions.DYNAMODB_TYPE, null, DynamoDbSettings.read(s, side.equals("source")));
    }
    warnings.addAll(JobOptions.warnings(s, JobOptions.IGNORED_SIDE));
    boolean source = side.equals("source");
    for (Option<?> option : (source ? JobOptions.TARGET_ONLY : JobOptions.SOURCE_ONLY).options()) {
      if (s.isSet(option)) {
        throw new ConfigException(
            s.key(option),
            s.optional(option).orElseThrow(),
            "no value: this key belongs to the " + (source ? "target" : "source") + " section");
      }
    }
    String username = value(s, USERNAME);
    String password = value(s, PASSWORD);
    checkCredentials(s.prefix() + ".credentials", username, password);
    // keys of the other side were refused above, so here they read as their defaults
    String where = value(s, WHERE);
    return new ConnectionSettings(
        side,
        value(s, TYPE),
        value(s, HOST),
        value(s, PORT),
        value(s, LOCAL_DC),
        username,
        password,
        SslSettings.read(s),
        value(s, KEYSPACE),
        value(s, TABLE),
        value(s, CONSISTENCY_LEVEL),
        value(s, CONNECTIONS),
        value(s, FETCH_SIZE),
        value(s, SPLIT_COUNT),
        value(s, SPLIT_SIZE) == null ? 0 : value(s, SPLIT_SIZE),
        value(s, PRESERVE_TIMESTAMPS),
        where == null || where.isBlank() ? null : where.trim(),
        value(s, WRITE_TTL),
        value(s, WRITE_TIMESTAMP),
        value(s, CONNECTOR_OPTIONS),
        null,
        null);
  }

  private static ConnectionSettings other(
      String side, String type, ParquetSettings files, DynamoDbSettings table) {
    return new ConnectionSettings(
        side,
        type,
        null,
        0,
        null,
        null,
        null,
        SslSettings.NONE,
        null,
        null,
        "LOCAL_QUORUM",
        1,
        5000,
        0,
        0,
        false,
        null,
        0,
        0,
        Map.of(),
        files,
        table);
  }

  /** True when this side is a set of Parquet files, not a table. */
  public boolean isParquet() {
    return parquet != null;
  }

  /** True when this side is a DynamoDB table. */
  public boolean isDynamoDb() {
    return dynamodb != null;
  }

  /** True when this side is a CQL table (Cassandra, ScyllaDB). */
  public boolean isCql() {
    return parquet == null && dynamodb == null;
  }

  /**
   * The connection of a Spark data source of a Varve namespace, from the keys of {@link
   * JobOptions#CONNECTION} at the top level of its options ({@code host}, {@code
   * credentials.username}, ...): the namespace's keyspace, no table, {@code consistencyLevel} as
   * given (the caller replaces the default by the namespace's own).
   */
  public static ConnectionSettings ofDataSource(OptionValues s, String keyspace) {
    String username = value(s, USERNAME);
    String password = value(s, PASSWORD);
    checkCredentials("credentials", username, password);
    return new ConnectionSettings(
        "",
        "cassandra",
        value(s, HOST),
        value(s, PORT),
        value(s, LOCAL_DC),
        username,
        password,
        SslSettings.read(s),
        keyspace,
        null,
        value(s, CONSISTENCY_LEVEL),
        value(s, CONNECTIONS),
        value(s, FETCH_SIZE),
        value(s, SPLIT_COUNT),
        0,
        false,
        null,
        0,
        0,
        Map.of(),
        null,
        null);
  }

  private static void checkCredentials(String key, String username, String password) {
    if ((username == null) != (password == null)) {
      throw new ConfigException(
          key,
          username == null ? "password only" : "username only",
          "both username and password, or neither");
    }
  }

  /** These settings with another consistency level. */
  public ConnectionSettings withConsistencyLevel(String level) {
    return new ConnectionSettings(
        side,
        type,
        hosts,
        port,
        localDC,
        username,
        password,
        ssl,
        keyspace,
        table,
        level,
        connections,
        fetchSize,
        splitCount,
        splitSizeMb,
        preserveTimestamps,
        where,
        writeTtlSeconds,
        writeTimestampMicros,
        options,
        parquet,
        dynamodb);
  }

  /**
   * The full key of one of this side's keys: {@code source.host}, or {@code host} for a data
   * source.
   */
  public String key(String name) {
    return side.isEmpty() ? name : side + "." + name;
  }

  /** {@code keyspace.table} as written in the configuration; a Parquet side's path. */
  public String qualifiedTable() {
    return isParquet()
        ? parquet.path()
        : isDynamoDb() ? "DynamoDB table " + dynamodb.table() : keyspace + "." + table;
  }

  /** The side in the job's file names: {@code keyspace.table}, or {@code parquet.<last name>}. */
  public String fileName() {
    return isParquet()
        ? "parquet." + parquet.lastName()
        : isDynamoDb() ? "dynamodb." + dynamodb.table() : keyspace + "." + table;
  }

  /** True when compaction is controlled the ScyllaDB way. */
  public boolean isScylla() {
    return type.equals("scylla");
  }

  /**
   * The connector options of this side: {@code common} ({@code spark.cassandra.*} options of the
   * whole job) overridden by this section's keys and its {@code options}.
   */
  public Map<String, String> connectorOptions(Map<String, String> common) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("spark.cassandra.connection.compression", "LZ4");
    common.forEach(
        (k, v) -> {
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
    if (isDynamoDb()) {
      return side
          + ": {type: dynamodb, table: "
          + dynamodb.table()
          + ", endpoint: "
          + (dynamodb.endpoint() == null ? "the region's" : dynamodb.endpoint())
          + ", region: "
          + dynamodb.region()
          + ", credentials: "
          + (dynamodb.accessKey() == null ? "default chain" : "****")
          + "}";
    }
    if (isParquet()) {
      return side
          + ": {type: parquet, path: "
          + parquet.path()
          + (parquet.hadoopOptions().containsKey("fs.s3a.access.key") ? ", credentials: ****" : "")
          + "}";
    }
    return side
        + ": {type: "
        + type
        + ", host: "
        + hosts
        + ", port: "
        + port
        + ", localDC: "
        + localDC
        + ", credentials: "
        + (username == null ? "none" : username + "/****")
        + ", ssl: "
        + ssl.enabled()
        + ", table: "
        + qualifiedTable()
        + ", consistencyLevel: "
        + consistencyLevel
        + (where == null ? "" : ", where: " + where)
        + "}";
  }
}
