package io.varve.reshaper.config;

import static io.varve.reshaper.config.OptionType.bool;
import static io.varve.reshaper.config.OptionType.decimal;
import static io.varve.reshaper.config.OptionType.integer;
import static io.varve.reshaper.config.OptionType.longInteger;
import static io.varve.reshaper.config.OptionType.mapping;
import static io.varve.reshaper.config.OptionType.nonBlank;
import static io.varve.reshaper.config.OptionType.oneOf;
import static io.varve.reshaper.config.OptionType.text;
import static io.varve.reshaper.config.OptionType.textList;

import io.varve.reshaper.config.JobOption.Scope;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every key of the job file, in the order of the reference docs: the one place a key, its
 * type, range, default and documentation are written. {@link JobConfigLoader} reads through
 * these options, and {@code docs/reshaper.md}'s key tables are generated from them (a test
 * keeps the two equal).
 */
public final class JobOptions {
  private static final List<JobOption<?>> ALL = new ArrayList<>();

  // source and target
  public static final JobOption<String> TYPE = sides("type",
      oneOf("cassandra or scylla", List.of("cassandra", "scylla")), "cassandra",
      "Only changes how compaction is disabled.");
  public static final JobOption<String> HOST = required(Scope.SIDES, "host",
      nonBlank("an address like 10.0.0.1 or a list like 10.0.0.1,10.0.0.2"),
      "One address or several separated by commas (contact points).");
  public static final JobOption<Integer> PORT = sides("port", integer(1, 65535), 9042,
      "CQL port.");
  public static final JobOption<String> LOCAL_DC = option(Scope.SIDES, "localDC", text(), null,
      "driver's inference", "The data center to read from / write to.");
  public static final JobOption<String> USERNAME = sides("credentials.username", text(), null,
      "Password authentication: the user name. Give both or neither.");
  public static final JobOption<String> PASSWORD = sides("credentials.password", text(), null,
      "Its password.");
  public static final JobOption<Boolean> SSL_ENABLED = sides("sslOptions.enabled", bool(), false,
      "TLS to the database.");
  public static final JobOption<String> TRUST_STORE_PATH = sides("sslOptions.trustStorePath",
      text(), null, "The trust store that validates the servers.");
  public static final JobOption<String> TRUST_STORE_PASSWORD = sides(
      "sslOptions.trustStorePassword", text(), null, "Its password.");
  public static final JobOption<String> TRUST_STORE_TYPE = option(Scope.SIDES,
      "sslOptions.trustStoreType", text(), null, "`JKS`", "Its type.");
  public static final JobOption<Boolean> CLIENT_AUTH = sides("sslOptions.clientAuthEnabled",
      bool(), false, "Mutual TLS; then `sslOptions.keyStorePath` is required.");
  public static final JobOption<String> KEY_STORE_PATH = sides("sslOptions.keyStorePath", text(),
      null, "The client's key store.");
  public static final JobOption<String> KEY_STORE_PASSWORD = sides("sslOptions.keyStorePassword",
      text(), null, "Its password.");
  public static final JobOption<String> KEY_STORE_TYPE = option(Scope.SIDES,
      "sslOptions.keyStoreType", text(), null, "`JKS`", "Its type.");
  public static final JobOption<String> TLS_PROTOCOL = option(Scope.SIDES, "sslOptions.protocol",
      text(), null, "`TLS`", "TLS protocol name.");
  public static final JobOption<List<String>> TLS_ALGORITHMS = option(Scope.SIDES,
      "sslOptions.enabledAlgorithms", textList(), List.of(), "JVM's", "Cipher suites.");
  public static final JobOption<String> KEYSPACE = required(Scope.SIDES, "keyspace",
      nonBlank("a keyspace name"),
      "The table's keyspace. Written as in CQL: unquoted names are case-insensitive.");
  public static final JobOption<String> TABLE = required(Scope.SIDES, "table",
      nonBlank("a table name"), "The table. Written as in CQL.");
  public static final JobOption<String> CONSISTENCY_LEVEL = sides("consistencyLevel",
      oneOf("ANY", "ONE", "TWO", "THREE", "QUORUM", "ALL", "LOCAL_QUORUM", "EACH_QUORUM",
          "LOCAL_ONE"), "LOCAL_QUORUM", "Of reads (source) or writes (target).");
  public static final JobOption<Integer> CONNECTIONS = sides("connections", integer(1, 64), 1,
      "Connections per host per executor JVM.");
  public static final JobOption<Map<String, String>> CONNECTOR_OPTIONS = sides("options",
      mapping("spark.cassandra.", "a mapping of spark.cassandra.* options",
          "a spark.cassandra.* option"), Map.of(),
      "Any `spark.cassandra.*` connector option for this side only, e.g."
          + " `spark.cassandra.read.timeoutMS: 240000`.");
  public static final JobOption<Integer> FETCH_SIZE = option(Scope.SOURCE, "fetchSize",
      integer(1, 100_000), 5000, null, "At most this many rows per page when reading. Pages are"
          + " also kept near 4 MiB: after each page, the next asks for fewer rows when the rows"
          + " are large. Migrator files often say `1000`; with 5000 the benchmark's reshape ran"
          + " about 20 % faster and its copy a few per cent.");
  public static final JobOption<Integer> SPLIT_COUNT = option(Scope.SOURCE, "splitCount",
      integer(0, 1_000_000), 0, "`max(64, 256 × nodes)`", "How many equal token ranges the ring"
          + " is cut into: the unit of work, progress and resume. 0 = the default.");
  public static final JobOption<String> WHERE = option(Scope.SOURCE, "where", text(), null, null,
      "A CQL condition added to every range scan (with `ALLOW FILTERING`), e.g."
          + " `date > '2020-01-01'`.");
  public static final JobOption<Boolean> PRESERVE_TIMESTAMPS = option(Scope.SOURCE,
      "preserveTimestamps", bool(), false, null, "Keep each cell's writetime and TTL; see"
          + " [Writetime and TTL](#writetime-and-ttl).");
  public static final JobOption<Long> WRITE_TTL = option(Scope.TARGET, "writeTTLInS",
      longInteger(0, Integer.MAX_VALUE), 0L, "`0` (none)", "A TTL in seconds for every written"
          + " cell, when timestamps are not preserved.");
  public static final JobOption<Long> WRITE_TIMESTAMP = option(Scope.TARGET,
      "writeWritetimestampInuS", longInteger(0, Long.MAX_VALUE), 0L, "`0` (server's time)",
      "A write timestamp in microseconds for every written cell, when timestamps are not"
          + " preserved.");

  // columns
  public static final JobOption<List<JobConfig.Rename>> RENAMES = job("renames",
      OptionType.renames(), List.of(),
      "Source columns written to a target column of another name.");
  public static final JobOption<List<String>> DROP = job("drop", textList(), List.of(),
      "Source columns that are not copied.");
  public static final JobOption<Map<String, String>> CONSTANTS = job("constants",
      mapping("", "a mapping of target columns to CQL literals", "a CQL literal"), Map.of(),
      "`<target column>: <CQL literal>` — fills a target column that no source column fills,"
          + " e.g. `region: eu-west`, `version: 2`, `created: '2024-01-01T00:00:00Z'`. Strings"
          + " may be written without CQL quotes.");

  // reshape
  public static final JobOption<OnConflict> ON_CONFLICT = job("reshape.onConflict",
      oneOf(OnConflict.values()), null, "Which of the source rows that land on one target"
          + " primary key is written.");
  public static final JobOption<String> RULE_COLUMN = option(Scope.JOB, "reshape.column", text(),
      null, "—", "The **target** column that `keepMax` / `keepMin` compare (any ordered type:"
          + " numbers, text, timestamp, date, time, uuid, inet, boolean, blob).");

  // savepoints, failures, progress
  public static final JobOption<String> SAVEPOINTS_PATH = job("savepoints.path", text(),
      "savepoints", "Directory of the savepoint file"
          + " `<source ks.table>-to-<target ks.table>.savepoint` (relative paths are relative to"
          + " the working directory of the driver).");
  public static final JobOption<Integer> SAVEPOINTS_INTERVAL = job("savepoints.intervalSeconds",
      integer(0, 86_400), 10, "How often the savepoint file is rewritten while the job runs"
          + " (0 = as soon as a range finishes). It is also written at the end and when the job"
          + " stops.");
  public static final JobOption<Long> MAX_BAD_ROWS = job("failures.maxBadRows",
      longInteger(0, Long.MAX_VALUE), 100L, "Bad rows tolerated; one more stops the job with"
          + " status 3.");
  public static final JobOption<String> BAD_ROWS_PATH = option(Scope.JOB, "failures.badRowsPath",
      text(), null, "`<savepoints.path>/<job>.bad-rows`", "File every bad row is appended to, as"
          + " the CQL statement that writes it after a comment with its error; see"
          + " [Bad rows and replay](#bad-rows-and-replay).");
  public static final JobOption<Integer> RETRIES = job("failures.retries", integer(0, 100), 3,
      "Retries of a failed write (50, 100, 200 ms apart) before its rows are retried one by one"
          + " and, if they still fail, counted as bad.");
  public static final JobOption<Integer> PROGRESS_INTERVAL = job("progress.intervalSeconds",
      integer(0, 3600), 5, "Seconds between progress lines; 0 = none.");

  // rateLimit, writer
  public static final JobOption<Long> ROWS_PER_SECOND = option(Scope.JOB,
      "rateLimit.rowsPerSecond", longInteger(0, Long.MAX_VALUE), 0L, "`0` (none)",
      "Cap on rows written per second by the whole job.");
  public static final JobOption<Double> MEGABYTES_PER_SECOND = option(Scope.JOB,
      "rateLimit.megabytesPerSecond", decimal(0), 0.0, "`0` (none)", "Cap on encoded value"
          + " bytes written per second by the whole job (MB = 10^6 bytes).");
  public static final JobOption<Integer> MAX_IN_FLIGHT = job("writer.maxInFlight",
      integer(1, 4096), 128, "Write requests outstanding per Spark task.");
  public static final JobOption<Integer> BATCH_ROWS = job("writer.batchRows", integer(1, 1000),
      100, "At most this many rows per unlogged batch.");
  public static final JobOption<Integer> BATCH_BYTES = job("writer.batchBytes",
      integer(1, 1 << 20), 4096, "At most this many value bytes per batch (Cassandra warns above"
          + " 5 KiB by default).");
  public static final JobOption<Integer> BATCH_PARTITIONS = job("writer.batchPartitions",
      integer(1, 100), 10, "At most this many target partitions per batch, all with the same"
          + " replicas (Cassandra warns above 10 by default,"
          + " `unlogged_batch_across_partitions_warn_threshold`); `1` = one partition per"
          + " batch.");

  // compaction, timestamps, validation, spark
  public static final JobOption<Boolean> DISABLE_COMPACTION = job(
      "compaction.disableDuringLoad", bool(), false, "Disable the target's compaction during"
          + " the copy and restore it afterwards.");
  public static final JobOption<Boolean> MAJOR_COMPACTION = job("compaction.majorCompactionAfter",
      bool(), false, "After a successful copy, run a major compaction of the target table on"
          + " every node over JMX.");
  public static final JobOption<Integer> JMX_PORT = job("compaction.jmxPort", integer(1, 65535),
      7199, "JMX port of the nodes, for the major compaction.");
  public static final JobOption<String> JMX_USERNAME = job("compaction.jmxUsername", text(), null,
      "JMX user, if JMX asks for one.");
  public static final JobOption<String> JMX_PASSWORD = job("compaction.jmxPassword", text(), null,
      "Its password.");
  public static final JobOption<JobConfig.CollectionTimestamps> NON_FROZEN_COLLECTIONS = job(
      "timestamps.nonFrozenCollections", oneOf(JobConfig.CollectionTimestamps.values()),
      JobConfig.CollectionTimestamps.FAIL, "With `preserveTimestamps`, what to do with"
          + " non-frozen collections and UDTs: `fail` (refuse the job) or `currentTime` (copy"
          + " them written at the job's time).");
  public static final JobOption<Integer> FAILURES_TO_FETCH = job("validation.failuresToFetch",
      integer(0, 100_000), 10, "How many differences `validate` prints.");
  public static final JobOption<Map<String, String>> SPARK = job("spark",
      mapping("spark.", "a mapping of Spark options",
          "a Spark option whose name starts with spark."), Map.of(),
      "Spark options (`spark.*`), e.g. `spark.master: local[8,3]` for the embedded mode or"
          + " `spark.cassandra.connection.compression: SNAPPY`. `spark.cassandra.*` options apply"
          + " to both sides, below each side's own keys; options given on the `spark-submit`"
          + " command line win over this section.");

  // keys of ScyllaDB's migrator that are accepted with a warning
  static {
    for (String key : List.of("skipTokenRanges", "skipSegments", "validation.compareTimestamps",
        "validation.ttlToleranceMillis", "validation.writetimeToleranceMillis",
        "validation.floatingPointTolerance", "validation.timestampMsTolerance")) {
      ignored(Scope.JOB, key);
    }
    ignored(Scope.SIDES, "stripTrailingZerosForDecimals");
    ignored(Scope.SIDES, "dropNullPrimaryKeys");
  }

  private JobOptions() {}

  /** Every option, ignored ones included, in the order of the docs. */
  public static List<JobOption<?>> all() {
    return Collections.unmodifiableList(ALL);
  }

  /**
   * The names a section may hold: the next path segment of every option of {@code scopes}
   * under {@code parent} ("" for the section itself); {@code ignored} picks the keys that are
   * accepted with a warning instead of the others.
   */
  static Set<String> names(Set<Scope> scopes, String parent, boolean ignored) {
    Set<String> names = new LinkedHashSet<>();
    String prefix = parent.isEmpty() ? "" : parent + ".";
    for (JobOption<?> o : ALL) {
      if (scopes.contains(o.scope()) && o.ignored() == ignored && o.path().startsWith(prefix)) {
        String rest = o.path().substring(prefix.length());
        names.add(rest.contains(".") ? rest.substring(0, rest.indexOf('.')) : rest);
      }
    }
    return names;
  }

  private static <T> JobOption<T> job(String path, OptionType<T> type, T defaultValue,
      String doc) {
    return option(Scope.JOB, path, type, defaultValue, null, doc);
  }

  private static <T> JobOption<T> sides(String path, OptionType<T> type, T defaultValue,
      String doc) {
    return option(Scope.SIDES, path, type, defaultValue, null, doc);
  }

  private static <T> JobOption<T> required(Scope scope, String path, OptionType<T> type,
      String doc) {
    return add(new JobOption<>(scope, path, type, null, true, null, doc));
  }

  private static <T> JobOption<T> option(Scope scope, String path, OptionType<T> type,
      T defaultValue, String defaultDoc, String doc) {
    return add(new JobOption<>(scope, path, type, defaultValue, false, defaultDoc, doc));
  }

  private static void ignored(Scope scope, String path) {
    add(new JobOption<>(scope, path, OptionType.ignored(), null, false, null, null));
  }

  private static <T> JobOption<T> add(JobOption<T> option) {
    ALL.add(option);
    return option;
  }
}
