package io.varve.reshaper.config;

import static io.varve.reshaper.config.JobTypes.bool;
import static io.varve.reshaper.config.JobTypes.decimal;
import static io.varve.reshaper.config.JobTypes.instant;
import static io.varve.reshaper.config.JobTypes.integer;
import static io.varve.reshaper.config.JobTypes.longInteger;
import static io.varve.reshaper.config.JobTypes.mapping;
import static io.varve.reshaper.config.JobTypes.nonBlank;
import static io.varve.reshaper.config.JobTypes.oneOf;
import static io.varve.reshaper.config.JobTypes.text;
import static io.varve.reshaper.config.JobTypes.textList;

import io.varve.core.partitioning.TimePartition;
import io.varve.options.Option;
import io.varve.options.OptionException;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import java.time.Instant;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every key of the job file, in the order of the reference docs: the one place a key, its type,
 * range, default and documentation are written, as options of the {@code options} module. {@link
 * JobConfigLoader} reads the file through them ({@link #value}), and {@code docs/reshaper.md}'s key
 * tables are generated from them (a test keeps the two equal).
 *
 * <p>The {@code source} and {@code target} sections share one registry, {@link #SIDE}: keys of both
 * sides, then those of the source only ({@link #SOURCE_ONLY}) and of the target only ({@link
 * #TARGET_ONLY}). The ScyllaDB migrator's keys that have no effect here are declared too, so that
 * they are accepted, with a warning ({@link #IGNORED_JOB}, {@link #IGNORED_SIDE}).
 */
public final class JobOptions {
  /** The options without a default that must be set; the others read as null when absent. */
  private static final Set<Option<?>> REQUIRED = new HashSet<>();

  /** The {@code type} of a side that is a DynamoDB table (or ScyllaDB's Alternator). */
  public static final String DYNAMODB_TYPE = "dynamodb";

  /** The {@code type} of a side that is a set of Parquet files. */
  public static final String PARQUET_TYPE = "parquet";

  private static final String NO_EFFECT =
      "Accepted for compatibility with the ScyllaDB migrator; no effect.";
  private static final Options.Builder SIDES = Options.builder();
  private static final Options.Builder SOURCE_SIDE = Options.builder();
  private static final Options.Builder TARGET_SIDE = Options.builder();
  private static final Options.Builder IGNORED_SIDES = Options.builder();
  private static final Options.Builder JOB = Options.builder();
  private static final Options.Builder IGNORED = Options.builder();
  private static final Options.Builder RENAME = Options.builder();

  // source and target
  public static final Option<String> TYPE =
      SIDES
          .option(
              "type",
              oneOf(
                  "cassandra, scylla, parquet or dynamodb",
                  List.of("cassandra", "scylla", PARQUET_TYPE, DYNAMODB_TYPE)))
          .defaultValue("cassandra")
          .doc(
              "`cassandra` and `scylla` differ only in how compaction is disabled; `parquet` and"
                  + " `dynamodb` take the keys of [Parquet files](#parquet-files) and"
                  + " [DynamoDB tables](#dynamodb-tables) instead of these.");
  public static final Option<String> HOST =
      required(
          SIDES
              .option("host", nonBlank("an address like 10.0.0.1 or a list like 10.0.0.1,10.0.0.2"))
              .doc("One address or several separated by commas (contact points)."));
  public static final Option<Integer> PORT =
      SIDES.option("port", integer(1, 65535)).defaultValue(9042).doc("CQL port.");
  public static final Option<String> LOCAL_DC =
      SIDES
          .option("localDC", text())
          .defaultDoc("driver's inference")
          .doc("The data center to read from / write to.");
  public static final Option<String> USERNAME =
      SIDES
          .option("credentials.username", text())
          .doc("Password authentication: the user name. Give both or neither.");
  public static final Option<String> PASSWORD =
      SIDES.option("credentials.password", text()).doc("Its password.");
  public static final Option<Boolean> SSL_ENABLED =
      SIDES.option("sslOptions.enabled", bool()).defaultValue(false).doc("TLS to the database.");
  public static final Option<String> TRUST_STORE_PATH =
      SIDES
          .option("sslOptions.trustStorePath", text())
          .doc("The trust store that validates the servers.");
  public static final Option<String> TRUST_STORE_PASSWORD =
      SIDES.option("sslOptions.trustStorePassword", text()).doc("Its password.");
  public static final Option<String> TRUST_STORE_TYPE =
      SIDES.option("sslOptions.trustStoreType", text()).defaultDoc("`JKS`").doc("Its type.");
  public static final Option<Boolean> CLIENT_AUTH =
      SIDES
          .option("sslOptions.clientAuthEnabled", bool())
          .defaultValue(false)
          .doc("Mutual TLS; then `sslOptions.keyStorePath` is required.");
  public static final Option<String> KEY_STORE_PATH =
      SIDES.option("sslOptions.keyStorePath", text()).doc("The client's key store.");
  public static final Option<String> KEY_STORE_PASSWORD =
      SIDES.option("sslOptions.keyStorePassword", text()).doc("Its password.");
  public static final Option<String> KEY_STORE_TYPE =
      SIDES.option("sslOptions.keyStoreType", text()).defaultDoc("`JKS`").doc("Its type.");
  public static final Option<String> TLS_PROTOCOL =
      SIDES.option("sslOptions.protocol", text()).defaultDoc("`TLS`").doc("TLS protocol name.");
  public static final Option<List<String>> TLS_ALGORITHMS =
      SIDES
          .option("sslOptions.enabledAlgorithms", textList())
          .defaultValue(List.of())
          .defaultDoc("JVM's")
          .doc("Cipher suites.");
  public static final Option<String> KEYSPACE =
      required(
          SIDES
              .option("keyspace", nonBlank("a keyspace name"))
              .doc(
                  "The table's keyspace. Written as in CQL: unquoted names are case-insensitive."));
  public static final Option<String> TABLE =
      required(
          SIDES.option("table", nonBlank("a table name")).doc("The table. Written as in CQL."));
  public static final Option<String> CONSISTENCY_LEVEL =
      SIDES
          .option(
              "consistencyLevel",
              oneOf(
                  "ANY",
                  "ONE",
                  "TWO",
                  "THREE",
                  "QUORUM",
                  "ALL",
                  "LOCAL_QUORUM",
                  "EACH_QUORUM",
                  "LOCAL_ONE"))
          .defaultValue("LOCAL_QUORUM")
          .doc("Of reads (source) or writes (target).");
  public static final Option<Integer> CONNECTIONS =
      SIDES
          .option("connections", integer(1, 64))
          .defaultValue(1)
          .doc("Connections per host per executor JVM.");
  public static final Option<Map<String, String>> CONNECTOR_OPTIONS =
      SIDES
          .option(
              "options",
              mapping(
                  "spark.cassandra.",
                  "a mapping of spark.cassandra.* options",
                  "a spark.cassandra.* option"))
          .defaultValue(Map.of())
          .defaultDoc("none")
          .doc(
              "Any `spark.cassandra.*` connector option for this side only, e.g."
                  + " `spark.cassandra.read.timeoutMS: 240000`.");
  public static final Option<Integer> FETCH_SIZE =
      SOURCE_SIDE
          .option("fetchSize", integer(1, 100_000))
          .defaultValue(5000)
          .doc(
              "At most this many rows per page when reading. Pages are"
                  + " also kept near 4 MiB: after each page, the next asks for fewer rows when the rows"
                  + " are large. Migrator files often say `1000`; with 5000 the benchmark's reshape ran"
                  + " about 20 % faster and its copy a few per cent.");
  public static final Option<Integer> SPLIT_COUNT =
      SOURCE_SIDE
          .option("splitCount", integer(0, 1_000_000))
          .defaultValue(0)
          .defaultDoc("`max(64, 256 × nodes)`")
          .doc(
              "How many equal token ranges the ring"
                  + " is cut into: the unit of work, progress and resume. 0 = the default.");
  public static final Option<Integer> SPLIT_SIZE =
      SOURCE_SIDE
          .option("splitSizeInMB", integer(1, 1_000_000))
          .defaultDoc("none")
          .doc(
              "With `splitCount` 0: cut the ring into ranges of about this many MiB of the table,"
                  + " its size estimated from `system.size_estimates` of the node the job talks to"
                  + " (the connector's `spark.cassandra.input.split.size_in_mb`). Without an"
                  + " estimate (a table too new for one), the default count.");
  public static final Option<String> WHERE =
      SOURCE_SIDE
          .option("where", text())
          .doc(
              "A CQL condition added to every range scan (with `ALLOW FILTERING`), e.g."
                  + " `date > '2020-01-01'`.");
  public static final Option<Boolean> PRESERVE_TIMESTAMPS =
      SOURCE_SIDE
          .option("preserveTimestamps", bool())
          .defaultValue(false)
          .doc(
              "Keep each cell's writetime and TTL; see"
                  + " [Writetime and TTL](#writetime-and-ttl).");
  public static final Option<Long> WRITE_TTL =
      TARGET_SIDE
          .option("writeTTLInS", longInteger(0, Integer.MAX_VALUE))
          .defaultValue(0L)
          .defaultDoc("`0` (none)")
          .doc("A TTL in seconds for every written cell, when timestamps are not preserved.");
  public static final Option<Long> WRITE_TIMESTAMP =
      TARGET_SIDE
          .option("writeWritetimestampInuS", longInteger(0, Long.MAX_VALUE))
          .defaultValue(0L)
          .defaultDoc("`0` (server's time)")
          .doc(
              "A write timestamp in microseconds for every written cell, when timestamps are not"
                  + " preserved.");

  static {
    IGNORED_SIDES.option("stripTrailingZerosForDecimals", JobTypes.ignored()).doc(NO_EFFECT);
    IGNORED_SIDES.option("dropNullPrimaryKeys", JobTypes.ignored()).doc(NO_EFFECT);
  }

  // a side of type parquet
  private static final Options.Builder PARQUET = Options.builder();
  public static final Option<String> PARQUET_PATH =
      required(
          PARQUET
              .option("path", nonBlank("a file or directory path, or a Hadoop file system URL"))
              .doc(
                  "Source: a Parquet file, or a directory whose files (hidden ones and those"
                      + " starting with `_` left out, subdirectories included) are read, one file"
                      + " per unit of work. Target: a directory, absent, empty or holding only this"
                      + " job's part files, that receives one file per unit of work. `file:`, `hdfs:` and any scheme"
                      + " whose Hadoop file system is on the classpath (`s3a:` with hadoop-aws)."));
  public static final Option<String> PARQUET_ACCESS_KEY =
      PARQUET
          .option("credentials.accessKey", text())
          .doc("S3 access key (Hadoop's `fs.s3a.access.key`). Give both or neither.");
  public static final Option<String> PARQUET_SECRET_KEY =
      PARQUET.option("credentials.secretKey", text()).doc("Its secret key (`fs.s3a.secret.key`).");
  public static final Option<String> PARQUET_ROLE_ARN =
      PARQUET
          .option("credentials.assumeRole.arn", text())
          .doc(
              "A role to assume (`fs.s3a.assumed.role.arn`, with hadoop-aws's assumed-role"
                  + " provider).");
  public static final Option<String> PARQUET_ROLE_SESSION =
      PARQUET
          .option("credentials.assumeRole.sessionName", text())
          .defaultDoc("`varve-reshaper`")
          .doc("The role's session name.");
  public static final Option<String> PARQUET_REGION =
      PARQUET.option("region", text()).doc("S3 region (`fs.s3a.endpoint.region`).");
  public static final Option<String> PARQUET_ENDPOINT_HOST =
      PARQUET
          .option("endpoint.host", text())
          .doc("An S3 endpoint's host, without a protocol (`fs.s3a.endpoint`).");
  public static final Option<Integer> PARQUET_ENDPOINT_PORT =
      PARQUET.option("endpoint.port", integer(1, 65535)).doc("Its port.");

  /** The keys of a side of type {@code parquet}, but {@code type}. */
  public static final Options PARQUET_ONLY = PARQUET.build();

  // a side of type dynamodb
  private static final Options.Builder DYNAMODB = Options.builder();
  public static final Option<String> DYNAMODB_TABLE =
      required(DYNAMODB.option("table", nonBlank("a DynamoDB table name")).doc("The table."));
  public static final Option<String> DYNAMODB_ENDPOINT_HOST =
      DYNAMODB
          .option("endpoint.host", text())
          .defaultDoc("the region's DynamoDB")
          .doc(
              "Another endpoint: ScyllaDB's Alternator, DynamoDB Local. A host without a protocol"
                  + " is reached over `https://`; write `http://host` for plain HTTP.");
  public static final Option<Integer> DYNAMODB_ENDPOINT_PORT =
      DYNAMODB
          .option("endpoint.port", integer(1, 65535))
          .defaultDoc("the protocol's")
          .doc("Its port.");
  public static final Option<String> DYNAMODB_REGION =
      DYNAMODB
          .option("region", text())
          .defaultDoc("`us-east-1`")
          .doc("The region requests are signed for (and sent to, without an endpoint).");
  public static final Option<String> DYNAMODB_ACCESS_KEY =
      DYNAMODB
          .option("credentials.accessKey", text())
          .defaultDoc("the AWS SDK's default chain")
          .doc("Static credentials: the access key. Give both or neither.");
  public static final Option<String> DYNAMODB_SECRET_KEY =
      DYNAMODB.option("credentials.secretKey", text()).doc("Its secret key.");
  public static final Option<Integer> SCAN_SEGMENTS =
      DYNAMODB
          .option("scanSegments", integer(1, 1_000_000))
          .defaultDoc("`max(16, 4 × Spark's default parallelism)`")
          .doc(
              "Source: the parallel Scan's segments, the unit of work, progress and resume (the"
                  + " ScyllaDB migrator's `skipSegments` is this job's savepoint).");
  public static final Option<Double> READ_THROUGHPUT =
      DYNAMODB
          .option("readThroughput", decimal(0))
          .defaultDoc("the table's provisioned read capacity; none when on demand")
          .doc("Source: the read capacity units per second the job's share is taken of.");
  public static final Option<Double> READ_PERCENT =
      DYNAMODB
          .option("throughputReadPercent", decimal(0.1, 1.5))
          .defaultValue(0.5)
          .doc(
              "Source: the share of `readThroughput` the whole job consumes (capacity the Scan"
                  + " reports, per second).");
  public static final Option<Double> WRITE_THROUGHPUT =
      DYNAMODB
          .option("writeThroughput", decimal(0))
          .defaultDoc("the table's provisioned write capacity; none when on demand")
          .doc("Target: the write capacity units per second the job's share is taken of.");
  public static final Option<Double> WRITE_PERCENT =
      DYNAMODB
          .option("throughputWritePercent", decimal(0.1, 1.5))
          .defaultValue(0.5)
          .doc(
              "Target: the share of `writeThroughput` the whole job consumes (1 unit per KB of"
                  + " item, rounded up).");
  public static final Option<Boolean> CREATE_TABLE =
      DYNAMODB
          .option("createTable", bool())
          .defaultValue(false)
          .doc(
              "Target: create the table when it does not exist, its hash key the source's"
                  + " partition key and its range key the source's clustering column (one each at"
                  + " most, of a type a key can have).");
  public static final Option<String> BILLING_MODE =
      DYNAMODB
          .option(
              "billingMode",
              oneOf("PAY_PER_REQUEST or PROVISIONED", List.of("PAY_PER_REQUEST", "PROVISIONED")))
          .defaultValue("PAY_PER_REQUEST")
          .doc(
              "Target, with `createTable`: the new table's billing; `PROVISIONED` takes"
                  + " `writeThroughput` (else 5) as its read and write capacity.");
  public static final Option<Boolean> STREAM_CHANGES =
      DYNAMODB
          .option("streamChanges", bool())
          .defaultValue(false)
          .doc(
              "The ScyllaDB migrator's change streaming; only `false` is accepted (not supported).");
  public static final Option<Boolean> SKIP_SNAPSHOT =
      DYNAMODB
          .option("skipInitialSnapshotTransfer", bool())
          .defaultValue(false)
          .doc("Only `false` is accepted: the job is the snapshot transfer.");

  /** The keys of a side of type {@code dynamodb}, but {@code type}. */
  public static final Options DYNAMODB_ONLY = DYNAMODB.build();

  private static final Options.Builder IGNORED_DYNAMODB_SIDE = Options.builder();

  static {
    for (String key :
        List.of(
            "maxMapTasks",
            "removeConsumedCapacity",
            "credentials.assumeRole.arn",
            "credentials.assumeRole.sessionName")) {
      IGNORED_DYNAMODB_SIDE.option(key, JobTypes.ignored()).doc(NO_EFFECT);
    }
  }

  /** The migrator's keys of a {@code dynamodb} side that have no effect. */
  public static final Options IGNORED_DYNAMODB = IGNORED_DYNAMODB_SIDE.build();

  /** The keys of the source only. */
  public static final Options SOURCE_ONLY = SOURCE_SIDE.build();

  /** The keys of the target only. */
  public static final Options TARGET_ONLY = TARGET_SIDE.build();

  /** The migrator's keys of {@code source} and {@code target} that have no effect. */
  public static final Options IGNORED_SIDE = IGNORED_SIDES.build();

  /** Every key of {@code source} and of {@code target}. */
  public static final Options SIDE =
      Options.of(SIDES.build(), SOURCE_ONLY, TARGET_ONLY, IGNORED_SIDE);

  /** Every key of a {@code source} or {@code target} of type {@code dynamodb}. */
  public static final Options DYNAMODB_SIDE =
      Options.of(SIDE.only(List.of(TYPE)), DYNAMODB_ONLY, IGNORED_SIDE, IGNORED_DYNAMODB);

  /** Every key of a {@code source} or {@code target} of type {@code parquet}. */
  public static final Options PARQUET_SIDE = Options.of(SIDE.only(List.of(TYPE)), PARQUET_ONLY);

  /**
   * The keys of a side that say how to reach the database and how to read it, without its table:
   * the connection keys the Spark data sources of Varve's namespaces take (their tables come from
   * the namespace). {@code options} is left out: a data source takes the {@code spark.cassandra.*}
   * options of its Spark session; and {@code type}, which only changes how a copy disables
   * compaction.
   */
  public static final Options CONNECTION =
      SIDE.only(
          List.of(
              HOST,
              PORT,
              LOCAL_DC,
              USERNAME,
              PASSWORD,
              SSL_ENABLED,
              TRUST_STORE_PATH,
              TRUST_STORE_PASSWORD,
              TRUST_STORE_TYPE,
              CLIENT_AUTH,
              KEY_STORE_PATH,
              KEY_STORE_PASSWORD,
              KEY_STORE_TYPE,
              TLS_PROTOCOL,
              TLS_ALGORITHMS,
              CONSISTENCY_LEVEL,
              CONNECTIONS,
              FETCH_SIZE,
              SPLIT_COUNT));

  // the sections of the two sides
  public static final Option<OptionValues> SOURCE =
      required(
          JOB.option(
                  "source",
                  JobTypes.side(
                      SIDE,
                      Map.of(PARQUET_TYPE, PARQUET_SIDE, DYNAMODB_TYPE, DYNAMODB_SIDE),
                      "a section with type, host, keyspace and table (or type and path, or type and"
                          + " table)"))
              .doc("Where rows are read: the database, how to reach it, the table."));
  public static final Option<OptionValues> TARGET =
      required(
          JOB.option(
                  "target",
                  JobTypes.side(
                      SIDE,
                      Map.of(PARQUET_TYPE, PARQUET_SIDE, DYNAMODB_TYPE, DYNAMODB_SIDE),
                      "a section with type, host, keyspace and table (or type and path, or type and"
                          + " table)"))
              .doc("Where rows are written: the database, how to reach it, the table."));

  // columns
  static final Option<String> RENAME_FROM =
      required(RENAME.option("from", nonBlank("a source column name")).doc("The source column."));
  static final Option<String> RENAME_TO =
      required(
          RENAME
              .option("to", nonBlank("a target column name"))
              .doc("The target column it is written to."));
  public static final Option<List<JobConfig.Rename>> RENAMES =
      JOB.option(
              "renames",
              JobTypes.entries(
                  RENAME.build(),
                  "a list of {from: source column, to: target column}",
                  entry ->
                      new JobConfig.Rename(value(entry, RENAME_FROM), value(entry, RENAME_TO))))
          .defaultValue(List.of())
          .defaultDoc("none")
          .doc("Source columns written to a target column of another name.");
  public static final Option<List<String>> DROP =
      JOB.option("drop", textList())
          .defaultValue(List.of())
          .defaultDoc("none")
          .doc("Source columns that are not copied.");
  public static final Option<Map<String, String>> CONSTANTS =
      JOB.option(
              "constants",
              mapping("", "a mapping of target columns to CQL literals", "a CQL literal"))
          .defaultValue(Map.of())
          .defaultDoc("none")
          .doc(
              "`<target column>: <CQL literal>` — fills a target column that no source column fills,"
                  + " e.g. `region: eu-west`, `version: 2`, `created: '2024-01-01T00:00:00Z'`. Strings"
                  + " may be written without CQL quotes.");

  // reshape
  public static final Option<OnConflict> ON_CONFLICT =
      JOB.option("reshape.onConflict", oneOf(OnConflict.values()))
          .doc("Which of the source rows that land on one target primary key is written.");
  public static final Option<String> RULE_COLUMN =
      JOB.option("reshape.column", text())
          .defaultDoc("—")
          .doc(
              "The **target** column that `keepMax` / `keepMin` compare (any ordered type:"
                  + " numbers, text, timestamp, date, time, uuid, inet, boolean, blob).");

  // timeSlice
  public static final Option<Instant> SLICE_START =
      JOB.option("timeSlice.start", instant())
          .defaultDoc("required in the section")
          .doc(
              "The slice's start: the origin of the grid of time buckets. With this section the"
                  + " source and target are slice tables and `time_bucket` and `event_bucket` are"
                  + " computed per row; see [Re-partitioning a time slice](#re-partitioning-a-time-slice-timeslice).");
  public static final Option<Instant> SLICE_END =
      JOB.option("timeSlice.end", instant())
          .defaultDoc("required in the section")
          .doc(
              "The slice's end, after its start. A row whose `event_time` is outside"
                  + " [start, end) is a bad row.");
  public static final Option<Long> SLICE_SECONDS_PER_TIME_BUCKET =
      JOB.option(
              "timeSlice.secondsPerTimeBucket",
              longInteger(1, TimePartition.MAX_SECONDS_PER_TIME_SLICE))
          .defaultDoc("required in the section")
          .doc("The target's time buckets, in seconds; it divides the slice's width.");
  public static final Option<Integer> SLICE_EVENT_BUCKETS =
      JOB.option("timeSlice.eventBuckets", integer(1, TimePartition.MAX_EVENT_BUCKETS))
          .defaultDoc("required in the section")
          .doc("The target's event buckets per time bucket.");

  // savepoints, failures, progress
  public static final Option<String> SAVEPOINTS_PATH =
      JOB.option("savepoints.path", text())
          .defaultValue("savepoints")
          .doc(
              "Directory of the savepoint file"
                  + " `<source ks.table>-to-<target ks.table>.savepoint` (relative paths are relative to"
                  + " the working directory of the driver).");
  public static final Option<Integer> SAVEPOINTS_INTERVAL =
      JOB.option("savepoints.intervalSeconds", integer(0, 86_400))
          .defaultValue(10)
          .doc(
              "How often the savepoint file is rewritten while the job runs"
                  + " (0 = as soon as a range finishes). It is also written at the end and when the job"
                  + " stops.");
  public static final Option<Long> MAX_BAD_ROWS =
      JOB.option("failures.maxBadRows", longInteger(0, Long.MAX_VALUE))
          .defaultValue(100L)
          .doc("Bad rows tolerated; one more stops the job with status 3.");
  public static final Option<String> BAD_ROWS_PATH =
      JOB.option("failures.badRowsPath", text())
          .defaultDoc("`<savepoints.path>/<job>.bad-rows`")
          .doc(
              "File every bad row is appended to, as"
                  + " the CQL statement that writes it after a comment with its error; see"
                  + " [Bad rows and replay](#bad-rows-and-replay).");
  public static final Option<Integer> RETRIES =
      JOB.option("failures.retries", integer(0, 100))
          .defaultValue(3)
          .doc(
              "Retries of a failed write (50, 100, 200 ms apart) before its rows are retried"
                  + " one by one and, if they still fail, counted as bad.");
  public static final Option<Integer> PROGRESS_INTERVAL =
      JOB.option("progress.intervalSeconds", integer(0, 3600))
          .defaultValue(5)
          .doc("Seconds between progress lines; 0 = none.");

  // rateLimit, writer
  public static final Option<Long> ROWS_PER_SECOND =
      JOB.option("rateLimit.rowsPerSecond", longInteger(0, Long.MAX_VALUE))
          .defaultValue(0L)
          .defaultDoc("`0` (none)")
          .doc("Cap on rows written per second by the whole job.");
  public static final Option<Double> MEGABYTES_PER_SECOND =
      JOB.option("rateLimit.megabytesPerSecond", decimal(0))
          .defaultValue(0.0)
          .defaultDoc("`0` (none)")
          .doc(
              "Cap on encoded value"
                  + " bytes written per second by the whole job (MB = 10^6 bytes).");
  public static final Option<Integer> MAX_IN_FLIGHT =
      JOB.option("writer.maxInFlight", integer(1, 4096))
          .defaultValue(128)
          .doc("Write requests outstanding per Spark task.");
  public static final Option<Integer> BATCH_ROWS =
      JOB.option("writer.batchRows", integer(1, 1000))
          .defaultValue(100)
          .doc("At most this many rows per unlogged batch.");
  public static final Option<Integer> BATCH_BYTES =
      JOB.option("writer.batchBytes", integer(1, 1 << 20))
          .defaultValue(4096)
          .doc(
              "At most this many bytes per batch as Cassandra counts them for its warning above"
                  + " `batch_size_warn_threshold` (5 KiB by default, a log line per batch): the"
                  + " clustering values and 24 bytes a row, each other value and 20 bytes. A"
                  + " non-frozen collection counts as one value, where Cassandra counts each"
                  + " element.");
  public static final Option<Integer> BATCH_PARTITIONS =
      JOB.option("writer.batchPartitions", integer(1, 100))
          .defaultValue(10)
          .doc(
              "At most this many target partitions per batch, all with the"
                  + " same replicas (Cassandra warns above 10 by default,"
                  + " `unlogged_batch_across_partitions_warn_threshold`); `1` = one partition per"
                  + " batch.");

  // compaction, timestamps, validation, spark
  public static final Option<Boolean> DISABLE_COMPACTION =
      JOB.option("compaction.disableDuringLoad", bool())
          .defaultValue(false)
          .doc("Disable the target's compaction during" + " the copy and restore it afterwards.");
  public static final Option<Boolean> MAJOR_COMPACTION =
      JOB.option("compaction.majorCompactionAfter", bool())
          .defaultValue(false)
          .doc(
              "After a successful copy, run a major compaction of the target"
                  + " table on every node over JMX.");
  public static final Option<Integer> JMX_PORT =
      JOB.option("compaction.jmxPort", integer(1, 65535))
          .defaultValue(7199)
          .doc("JMX port of the nodes, for the major compaction.");
  public static final Option<String> JMX_USERNAME =
      JOB.option("compaction.jmxUsername", text()).doc("JMX user, if JMX asks for one.");
  public static final Option<String> JMX_PASSWORD =
      JOB.option("compaction.jmxPassword", text()).doc("Its password.");
  public static final Option<JobConfig.CollectionTimestamps> NON_FROZEN_COLLECTIONS =
      JOB.option("timestamps.nonFrozenCollections", oneOf(JobConfig.CollectionTimestamps.values()))
          .defaultValue(JobConfig.CollectionTimestamps.FAIL)
          .doc(
              "With `preserveTimestamps`, what to do with"
                  + " non-frozen collections and UDTs: `fail` (refuse the job) or `currentTime` (copy"
                  + " them written at the job's time).");
  public static final Option<Integer> FAILURES_TO_FETCH =
      JOB.option("validation.failuresToFetch", integer(0, 100_000))
          .defaultValue(10)
          .doc("How many differences `validate` prints.");
  public static final Option<Boolean> COMPARE_TIMESTAMPS =
      JOB.option("validation.compareTimestamps", bool())
          .defaultValue(false)
          .doc(
              "Also compare each regular column's writetime and TTL with the source's (for copies"
                  + " made with `preserveTimestamps`; non-frozen collections have none to compare).");
  public static final Option<Long> WRITETIME_TOLERANCE =
      JOB.option("validation.writetimeToleranceMillis", longInteger(0, Long.MAX_VALUE / 1000))
          .defaultValue(0L)
          .doc("Writetimes that differ by at most this many milliseconds are equal.");
  public static final Option<Long> TTL_TOLERANCE =
      JOB.option("validation.ttlToleranceMillis", longInteger(0, Long.MAX_VALUE / 1000))
          .defaultValue(0L)
          .doc(
              "TTLs that differ by at most this many milliseconds are equal (a TTL counts down"
                  + " between the two reads; TTLs are whole seconds).");
  public static final Option<Double> FLOAT_TOLERANCE =
      JOB.option("validation.floatingPointTolerance", decimal(0))
          .defaultValue(0.0)
          .doc(
              "`float` and `double` columns whose values differ by at most this much are equal"
                  + " (NaN equals NaN); values inside collections are compared exactly.");
  public static final Option<Long> TIMESTAMP_TOLERANCE =
      JOB.option("validation.timestampMsTolerance", longInteger(0, Long.MAX_VALUE))
          .defaultValue(0L)
          .doc("`timestamp` columns that differ by at most this many milliseconds are equal.");
  public static final Option<Boolean> TARGET_ONLY_ROWS =
      JOB.option("validation.targetOnlyRows", bool())
          .defaultValue(true)
          .doc(
              "Also scan the target for rows that no source row makes (deleted from the source,"
                  + " written by someone else): a second read of the source's keys and a read of the"
                  + " target's, compared in Spark. `false` saves both reads.");
  public static final Option<Boolean> COPY_MISSING_ROWS =
      JOB.option("validation.copyMissingRows", bool())
          .defaultValue(false)
          .doc("As `migrate validate --copy-missing`: write the missing rows to the target.");
  public static final Option<Map<String, String>> SPARK =
      JOB.option(
              "spark",
              mapping(
                  "spark.",
                  "a mapping of Spark options",
                  "a Spark option whose name starts with spark."))
          .defaultValue(Map.of())
          .defaultDoc("none")
          .doc(
              "Spark options (`spark.*`), e.g. `spark.master: local[8,3]` for the embedded mode or"
                  + " `spark.cassandra.connection.compression: SNAPPY`. `spark.cassandra.*` options apply"
                  + " to both sides, below each side's own keys; options given on the `spark-submit`"
                  + " command line win over this section.");

  static {
    for (String key :
        List.of(
            "skipTokenRanges",
            "skipSegments",
            "savepoints.enableParquetFileTracking",
            "validation.repairWritetimeStrategy",
            "validation.hashColumns",
            "validation.numericTypePolicy")) {
      IGNORED.option(key, JobTypes.ignored()).doc(NO_EFFECT);
    }
  }

  /** The migrator's keys of the job's own sections that have no effect. */
  public static final Options IGNORED_JOB = IGNORED.build();

  /** Every key of the job file: the two sides, then the job's own sections. */
  public static final Options FILE = Options.of(JOB.build(), IGNORED_JOB);

  private JobOptions() {}

  /** Every option the docs tables show, in their order: the two sides', then the job's. */
  public static List<Option<?>> documented() {
    // one list, not one registry: a table's and a DynamoDB side's keys share names (table)
    return java.util.stream.Stream.of(SIDE, PARQUET_ONLY, DYNAMODB_ONLY, FILE)
        .flatMap(o -> o.options().stream())
        .filter(
            o ->
                o != SOURCE && o != TARGET && !IGNORED_SIDE.contains(o) && !IGNORED_JOB.contains(o))
        .toList();
  }

  /**
   * The value of {@code option} in {@code values}: the value set, else its default, else (absent
   * and without a default) null; a required option that is absent is refused as missing.
   */
  static <T> T value(OptionValues values, Option<T> option) {
    Optional<T> set = values.optional(option);
    if (set.isPresent()) {
      return set.get();
    }
    if (REQUIRED.contains(option)) {
      throw new OptionException(values.key(option), "missing", option.typeDoc());
    }
    return option.hasDefault() ? values.get(option) : null;
  }

  /** A warning for each key of {@code ignored} that {@code values} sets. */
  static List<String> warnings(OptionValues values, Options ignored) {
    return ignored.options().stream()
        .filter(values::isSet)
        .map(
            o ->
                values.key(o)
                    + " is accepted for compatibility with the ScyllaDB migrator but has no effect")
        .toList();
  }

  /** The default as the docs write it: {@code required}, {@code none}, a value or a rule. */
  public static String defaultDoc(Option<?> option) {
    if (REQUIRED.contains(option)) {
      return "required";
    }
    Options registry =
        SIDE.contains(option)
            ? SIDE
            : PARQUET_ONLY.contains(option)
                ? PARQUET_ONLY
                : DYNAMODB_ONLY.contains(option) ? DYNAMODB_ONLY : FILE;
    String doc = option.defaultDoc(OptionValues.defaults(registry));
    // the options module's word for a key without a default; the job file's docs say "none"
    return doc.equals("absent") ? "none" : doc;
  }

  /**
   * The key as the docs write it: the key, after {@code source.} or {@code target.} for a key of
   * one side only.
   */
  public static String documentedKey(Option<?> option) {
    return SOURCE_ONLY.contains(option)
        ? "source." + option.key()
        : TARGET_ONLY.contains(option) ? "target." + option.key() : option.key();
  }

  private static <T> Option<T> required(Option<T> option) {
    REQUIRED.add(option);
    return option;
  }
}
