package io.varve.perf.spark;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.VarveServer;
import io.varve.perf.migrate.RawIngest;
import io.varve.reshaper.config.JobConfigLoader;
import io.varve.reshaper.job.Outcome;
import io.varve.reshaper.job.ReshapeJob;
import io.varve.reshaper.job.SparkSupport;
import io.varve.reshaper.transfer.NamespaceTransfer;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.Dataset;
import org.apache.spark.sql.SparkSession;
import org.apache.spark.sql.functions;

/**
 * {@code varve perf spark}: the figures of the Spark data sources, each beside the baseline the
 * issue names, in one JVM and one embedded Spark on the local Cassandra, with a Varve server of the
 * run's own for the control plane:
 *
 * <ol>
 *   <li>the namespace is loaded through {@code varve-timeseries} (events spread over 10 hours of
 *       one-hour slices, 10-minute buckets of 4 event buckets);
 *   <li>{@code read.ratio}: the DataFrame read of the namespace (every column, values decoded) ÷
 *       the Spark Cassandra connector's plain read of the same slice tables, both consumed by
 *       Spark's {@code noop} sink;
 *   <li>{@code export.ratio}: {@code varve export} to Parquet ÷ the reshaper's plain copy of the
 *       same slice tables into tables of the same shape;
 *   <li>{@code import.ratio}: {@code varve import} of that export into a fresh namespace ÷ {@code
 *       perf migrate}'s raw CQL ingest with batches packed by replicas, of as many rows; and {@code
 *       import.ratio_same_rows}: ÷ the same raw ingest of rows of a slice table's shape.
 * </ol>
 *
 * A ratio is events per second of the first over rows per second of the second. Spark, the JIT and
 * the connections warm up on a tenth of the events first, untimed.
 */
final class SparkBenchmark {

  private static final String KEYSPACE = "varve_perf_spark";
  private static final String META = "varve_perf_spark_meta";
  private static final String NS = "perf_spark";
  private static final String FRESH = "perf_spark_import";
  private static final String WARM = "perf_spark_warmup";

  /** The columns and keys of a slice table, for the baselines' tables of the same shape. */
  private static final String SLICE_SHAPE =
      " (time_series_id text, time_bucket timestamp, event_bucket int, event_time timestamp,"
          + " event_id text, event_item_key blob, event_item_value blob, value_metadata text,"
          + " PRIMARY KEY ((time_series_id, time_bucket, event_bucket), event_time, event_id,"
          + " event_item_key)) WITH CLUSTERING ORDER BY (event_time DESC, event_id ASC,"
          + " event_item_key ASC)";

  private final Environment environment;
  private final int events;
  private final int valueBytes;
  private final PrintStream out;
  private final HttpClient http = HttpClient.newHttpClient();
  private final Instant now = Instant.now().truncatedTo(ChronoUnit.HOURS);
  private URI api;
  private InetSocketAddress address;

  SparkBenchmark(Environment environment, int events, int valueBytes, PrintStream out) {
    this.environment = environment;
    this.events = events;
    this.valueBytes = valueBytes;
    this.out = out;
  }

  void run() throws Exception {
    var local = environment.cassandra();
    environment.awaitReady();
    String hostPort = local.address();
    int colon = hostPort.lastIndexOf(':');
    address =
        new InetSocketAddress(
            hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    CqlSession session =
        environment.closeAtEnd(
            "close the CQL session",
            CqlSession.builder()
                .addContactPoint(address)
                .withLocalDatacenter(LocalCassandraSettings.DATACENTER)
                .build());
    for (String ks : List.of(KEYSPACE, META, NS, FRESH, WARM)) {
      ddl(session, "DROP KEYSPACE IF EXISTS " + ks);
    }
    ddl(
        session,
        "CREATE KEYSPACE "
            + KEYSPACE
            + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 1}");
    ddl(
        session,
        "CREATE TABLE "
            + KEYSPACE
            + ".raw_ingest_packed (partnerid text, id text, date timestamp,"
            + " PRIMARY KEY ((partnerid), date, id)) WITH CLUSTERING ORDER BY (date DESC)");
    VarveServer server =
        VarveServer.start(
            environment,
            "perf-spark",
            "cassandra:\n  contactPoints: [\""
                + address.getHostString()
                + ":"
                + address.getPort()
                + "\"]\n  metadataKeyspace: "
                + META
                + "\ntimeseries:\n  sliceMaintenanceInterval: 1s\n");
    api = URI.create(server.apiAddress());
    for (String ns : List.of(NS, FRESH, WARM)) {
      post(
          "CreateNamespace",
          "{\"namespace\": \""
              + ns
              + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", \"config\": {"
              + "\"timePartition\": {\"secondsPerTimeSlice\": \"3600\", \"secondsPerTimeBucket\":"
              + " \"600\", \"eventBuckets\": 4}, \"acceptLimit\": \"12h\"}}]}");
    }
    awaitSlices(session, NS);
    awaitSlices(session, FRESH);
    awaitSlices(session, WARM);

    SparkSession spark = SparkSupport.session(Map.of());
    kv("events", events);
    kv("value_bytes", valueBytes);
    kv("cores", Runtime.getRuntime().availableProcessors());
    kv("task_slots", spark.sparkContext().defaultParallelism());

    environment.progress("warm-up on " + Math.max(1000, events / 10) + " events, untimed");
    load(spark, WARM, Math.max(1000, events / 10));
    readNamespace(spark, WARM);
    readTables(spark, session, WARM);

    environment.progress("loading " + events + " events through varve-timeseries");
    double loadSeconds = load(spark, NS, events);
    kv("load.events_per_s", events / loadSeconds);
    long stored = countRows(session, NS);
    if (stored != events) {
      throw new IllegalStateException(NS + " holds " + stored + " rows, not " + events);
    }

    environment.progress("read: the DataFrame, then the connector's plain read");
    double read = readNamespace(spark, NS);
    double plainRead = readTables(spark, session, NS);
    kv("read.events_per_s", events / read);
    kv("read.connector_rows_per_s", events / plainRead);
    kv("read.ratio", plainRead / read);

    environment.progress("export, then the reshaper's plain copy of the slice tables");
    Path dir = Files.createTempDirectory("varve-perf-spark");
    environment.atEnd("remove " + dir, () -> deleteTree(dir));
    double export = export(dir.resolve("export"));
    double copy = copyTables(session, NS);
    kv("export.events_per_s", events / export);
    kv("export.copy_rows_per_s", events / copy);
    kv("export.ratio", copy / export);

    environment.progress("import, then raw packed CQL ingest of as many rows");
    double imported = importInto(dir.resolve("export"), FRESH);
    double raw = RawIngest.write(session, KEYSPACE + ".raw_ingest_packed", events, 10);
    kv("import.events_per_s", events / imported);
    kv("import.raw_ingest_packed_rows_per_s", events / raw);
    kv("import.ratio", raw / imported);
    double sameRows = rawEventRows(session, events);
    kv("import.raw_event_rows_per_s", events / sameRows);
    kv("import.ratio_same_rows", sameRows / imported);
    long back = countRows(session, FRESH);
    if (back != events) {
      throw new IllegalStateException(
          FRESH + " holds " + back + " rows after the import, not " + events);
    }
  }

  /**
   * The same raw packed ingest ({@link RawIngest}) of rows of a slice table's shape: partitions of
   * 10 one-item events with values of {@code valueBytes}, as the import writes them; returns
   * seconds. Tells what the rows cost Cassandra from what the import's writer adds.
   */
  private double rawEventRows(CqlSession session, int rows) {
    String table = KEYSPACE + ".raw_event_rows";
    ddl(session, "CREATE TABLE " + table + SLICE_SHAPE);
    byte[] value = new byte[valueBytes];
    java.util.Arrays.fill(value, (byte) 'v');
    long base = now.toEpochMilli() - Duration.ofHours(10).toMillis();
    java.util.function.IntFunction<Object[]> key =
        p ->
            new Object[] {
              "raw-" + p / 240, Instant.ofEpochMilli(base + (p % 60) * 600_000L), p % 4
            };
    return RawIngest.write(
        session,
        table,
        "INSERT INTO "
            + table
            + " (time_series_id, time_bucket, event_bucket, event_time, event_id, event_item_key,"
            + " event_item_value, value_metadata) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
        rows,
        10,
        key,
        (p, slot) -> {
          Object[] k = key.apply(p);
          return new Object[] {
            k[0],
            k[1],
            k[2],
            ((Instant) k[1]).plusMillis(slot * 1000L),
            "e" + p + "-" + slot,
            java.nio.ByteBuffer.wrap(new byte[] {'k'}),
            java.nio.ByteBuffer.wrap(value),
            ""
          };
        });
  }

  private Map<String, String> options(String ns) {
    Map<String, String> o = new LinkedHashMap<>();
    o.put("host", address.getHostString());
    o.put("port", Integer.toString(address.getPort()));
    o.put("localDC", LocalCassandraSettings.DATACENTER);
    o.put("metadataKeyspace", META);
    o.put("namespace", ns);
    return o;
  }

  /** Writes {@code count} one-item events over the last 10 hours; returns seconds. */
  private double load(SparkSession spark, String ns, int count) {
    long newest = now.toEpochMilli() - 60_000;
    long spread = Duration.ofHours(10).toMillis();
    Dataset<org.apache.spark.sql.Row> df =
        spark
            .range(count)
            .select(
                functions
                    .concat(
                        functions.lit("series-"),
                        functions.col("id").mod(series(count)).cast("string"))
                    .as("time_series_id"),
                functions
                    .timestamp_millis(
                        functions
                            .lit(newest)
                            .minus(functions.col("id").multiply(spread / count + 1).mod(spread)))
                    .as("event_time"),
                functions
                    .concat(functions.lit("e"), functions.col("id").cast("string"))
                    .as("event_id"),
                functions.lit(new byte[] {'k'}).as("item_key"),
                functions
                    .expr(
                        "substring(repeat(sha2(cast(id as string), 256), "
                            + (valueBytes / 64 + 1)
                            + "), 1, "
                            + valueBytes
                            + ")")
                    .cast("binary")
                    .as("item_value"));
    long start = System.nanoTime();
    df.write().format("varve-timeseries").mode("append").options(options(ns)).save();
    return (System.nanoTime() - start) / 1e9;
  }

  /**
   * Series enough for partitions of about 10 rows (10 hours of 10-minute buckets of 4 event
   * buckets: 240 partitions a series), the size of those {@code perf migrate}'s raw ingest writes.
   */
  static long series(int count) {
    return Math.max(1, count / 2400);
  }

  private double readNamespace(SparkSession spark, String ns) {
    long start = System.nanoTime();
    spark
        .read()
        .format("varve-timeseries")
        .options(options(ns))
        .load()
        .write()
        .format("noop")
        .mode("overwrite")
        .save();
    return (System.nanoTime() - start) / 1e9;
  }

  /** The connector's read of every slice table of {@code ns}, every column; returns seconds. */
  private double readTables(SparkSession spark, CqlSession session, String ns) {
    spark.conf().set("spark.cassandra.connection.host", address.getHostString());
    spark.conf().set("spark.cassandra.connection.port", Integer.toString(address.getPort()));
    spark.conf().set("spark.cassandra.connection.localDC", LocalCassandraSettings.DATACENTER);
    long start = System.nanoTime();
    Dataset<org.apache.spark.sql.Row> all = null;
    for (String table : tables(session, ns)) {
      Dataset<org.apache.spark.sql.Row> one =
          spark
              .read()
              .format("org.apache.spark.sql.cassandra")
              .options(Map.of("keyspace", ns, "table", table))
              .load();
      all = all == null ? one : all.union(one);
    }
    all.write().format("noop").mode("overwrite").save();
    return (System.nanoTime() - start) / 1e9;
  }

  private double export(Path dir) {
    long start = System.nanoTime();
    var status = new NamespaceTransfer(System.err, System.err).export(options(NS), dir);
    if (status != io.varve.command.ExitStatus.OK) {
      throw new IllegalStateException("the export ended with " + status);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private double importInto(Path dir, String ns) {
    long start = System.nanoTime();
    var status = new NamespaceTransfer(System.err, System.err).importFrom(options(ns), dir);
    if (status != io.varve.command.ExitStatus.OK) {
      throw new IllegalStateException("the import ended with " + status);
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /**
   * The reshaper's plain copy (no reshape) of every slice table of {@code ns} into a table of the
   * same shape in the benchmark's keyspace, one job per table; returns seconds.
   */
  private double copyTables(CqlSession session, String ns) {
    List<String> tables = tables(session, ns);
    for (String table : tables) {
      ddl(session, "CREATE TABLE " + KEYSPACE + ".copy_" + table + SLICE_SHAPE);
    }
    long start = System.nanoTime();
    for (String table : tables) {
      String yaml =
          side("source", ns, table)
              + side("target", KEYSPACE, "copy_" + table)
              + "savepoints:\n  path: "
              + System.getProperty("java.io.tmpdir")
              + "/varve-perf-spark-"
              + System.nanoTime()
              + "\n";
      Outcome status =
          new ReshapeJob(JobConfigLoader.parse(yaml), System.err, System.err)
              .run(ReshapeJob.Kind.COPY, false);
      if (status != Outcome.OK) {
        throw new IllegalStateException("the copy of " + table + " ended with " + status);
      }
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private String side(String side, String keyspace, String table) {
    return io.varve.perf.migrate.MigratePhases.jobSide(side, address, keyspace, table);
  }

  /** The slice tables of a namespace, from the control plane's table. */
  private static List<String> tables(CqlSession session, String ns) {
    List<String> tables = new ArrayList<>();
    for (Row r :
        session.execute(
            SimpleStatement.newInstance(
                "SELECT table_name FROM " + META + ".time_slices WHERE namespace = ?", ns))) {
      tables.add(r.getString(0));
    }
    return tables;
  }

  private static long countRows(CqlSession session, String ns) {
    long rows = 0;
    for (String table : tables(session, ns)) {
      rows +=
          session
              .execute(
                  SimpleStatement.newInstance("SELECT count(*) FROM " + ns + "." + table)
                      .setTimeout(Duration.ofMinutes(5)))
              .one()
              .getLong(0);
    }
    return rows;
  }

  private void awaitSlices(CqlSession session, String ns) throws InterruptedException {
    for (int i = 0; i < 240; i++) {
      if (tables(session, ns).size() >= 12) {
        return;
      }
      Thread.sleep(500);
    }
    throw new IllegalStateException("the slices of " + ns + " were not created");
  }

  private void post(String rpc, String json) throws Exception {
    HttpResponse<String> r =
        http.send(
            HttpRequest.newBuilder(api.resolve("/v1/" + rpc))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(json))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    if (r.statusCode() != 200) {
      throw new IllegalStateException(rpc + " answered " + r.statusCode() + ": " + r.body());
    }
  }

  private static void ddl(CqlSession session, String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(120)));
  }

  private static void deleteTree(Path dir) throws java.io.IOException {
    if (!Files.exists(dir)) {
      return;
    }
    try (var paths = Files.walk(dir)) {
      for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        Files.deleteIfExists(p);
      }
    }
  }

  /** A figure: whole numbers and those above 10 without decimals, the rest with three. */
  private void kv(String key, double value) {
    out.println(
        key
            + "="
            + String.format(
                Locale.ROOT, value > 10 || value == Math.rint(value) ? "%.0f" : "%.3f", value));
  }
}
