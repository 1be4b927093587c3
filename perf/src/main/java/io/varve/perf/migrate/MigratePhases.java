package io.varve.perf.migrate;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.perf.measure.CpuMeter;
import io.varve.reshaper.config.JobConfigLoader;
import io.varve.reshaper.job.Outcome;
import io.varve.reshaper.job.ReshapeJob;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.DoubleSupplier;
import org.apache.spark.sql.SparkSession;

/**
 * The timed phases of {@code varve perf migrate}, each reading the users' case table {@code
 * ids_by_partnerid} and writing its own target table: (a) the reshaper's copy, (b) its compact
 * reshape, (c) a plain connector DataFrame copy, (d) raw async CQL ingest of the same rows, (e) the
 * same ingest with batches packed as the reshaper packs them, (f) the reshaper's unload of the
 * source to Parquet files, (g) its load of those files into a table and (j) the {@link RawCopy} of
 * the table, run beside (a). The tables of the untimed warm-up have the prefix {@code warmup_}.
 */
public final class MigratePhases {

  /** The phases' names, in the order of {@link #run}'s seconds. */
  static final List<String> NAMES =
      List.of(
          "copy",
          "reshape",
          "baseline",
          "raw_ingest",
          "raw_ingest_packed",
          "parquet_unload",
          "parquet_load",
          "raw_copy");

  private static final String SOURCE = "ids_by_partnerid";
  private static final int QUIET_WAIT_SECONDS = 60;

  /** The token ranges of the reshaper's default split on one node, which the raw copy takes. */
  private static final int DEFAULT_SPLIT_COUNT = 256;

  private static final String HISTORY =
      "(partnerid text, id text, date timestamp,"
          + " PRIMARY KEY ((partnerid), date, id)) WITH CLUSTERING ORDER BY (date DESC)";
  private static final String COMPACT =
      "(partnerid text, id text, seen_date timestamp," + " PRIMARY KEY ((partnerid), id))";

  /** The tables the phases write, in the order of {@link #NAMES}. */
  private static final List<String> TARGETS =
      List.of(
          "ids_by_partnerid_history",
          "ids_by_partnerid_compact",
          "baseline_history",
          "raw_ingest",
          "raw_ingest_packed",
          "parquet_load",
          "raw_copy");

  private final CqlSession session;
  private final InetSocketAddress address;
  private final String keyspace;
  private final CpuMeter cpu;
  private final PrintStream err;

  /** CPU time of each process over each phase of the counted runs, by phase name. */
  private final Map<String, Map<String, Duration>> cpuByPhase = new LinkedHashMap<>();

  private boolean counting;
  private int runs;

  MigratePhases(
      CqlSession session,
      InetSocketAddress address,
      String keyspace,
      CpuMeter cpu,
      PrintStream err) {
    this.session = session;
    this.address = address;
    this.keyspace = keyspace;
    this.cpu = cpu;
    this.err = err;
  }

  /**
   * (Re)creates the keyspace with the source and target tables, and their {@code warmup_} twins.
   */
  void createSchema() {
    ddl("DROP KEYSPACE IF EXISTS " + keyspace);
    ddl(
        "CREATE KEYSPACE "
            + keyspace
            + " WITH replication = {'class':"
            + " 'SimpleStrategy', 'replication_factor': 1}");
    for (String prefix : new String[] {"warmup_", ""}) {
      ddl("CREATE TABLE " + keyspace + "." + prefix + SOURCE + " " + HISTORY);
      createTargets(prefix);
    }
  }

  /**
   * Replaces the target tables by empty ones, so that a repetition writes into empty tables as the
   * first one does.
   */
  void recreateTargets() {
    for (String table : TARGETS) {
      ddl("DROP TABLE " + keyspace + "." + table);
    }
    createTargets("");
  }

  /**
   * Writes {@code rows} rows of the users' case into the source table with this prefix; returns
   * seconds.
   */
  double generate(String prefix, int rows) {
    return RawIngest.write(session, keyspace + "." + prefix + SOURCE, rows);
  }

  /**
   * Runs the phases on the tables with this prefix; returns the seconds of each, in the order of
   * {@link #NAMES}.
   */
  double[] run(String prefix, int rows) {
    counting = prefix.isEmpty();
    // the copy and the raw copy side by side, the first of them in turn: the first read of the
    // source after other work meets colder caches and a JIT compiler busier with the switch
    boolean rawFirst = runs++ % 2 == 1;
    double rawCopy = rawFirst ? rawCopy(prefix) : 0;
    double copy = metered("copy", () -> timeJob(prefix, TARGETS.get(0), ""));
    if (!rawFirst) {
      rawCopy = rawCopy(prefix);
    }
    double reshape =
        metered(
            "reshape",
            () ->
                timeJob(
                    prefix,
                    TARGETS.get(1),
                    "renames:\n  - from: date\n    to: seen_date\n"
                        + "reshape:\n  onConflict: keepMax\n  column: seen_date\n"));
    double baseline = metered("baseline", () -> baseline(prefix));
    double raw =
        metered(
            "raw_ingest",
            () -> RawIngest.write(session, keyspace + "." + prefix + TARGETS.get(3), rows));
    double packed =
        metered(
            "raw_ingest_packed",
            () -> RawIngest.write(session, keyspace + "." + prefix + TARGETS.get(4), rows, 10));
    // one file per token range of the default split: 256 files
    String files =
        System.getProperty("java.io.tmpdir") + "/varve-perf-parquet-" + System.nanoTime();
    double unload =
        metered(
            "parquet_unload",
            () ->
                timeJob(
                    side("source", prefix + SOURCE),
                    "target:\n  type: parquet\n  path: " + files + "\n",
                    "",
                    "parquet files"));
    double load =
        metered(
            "parquet_load",
            () ->
                timeJob(
                    "source:\n  type: parquet\n  path: " + files + "\n",
                    side("target", prefix + TARGETS.get(5)),
                    "",
                    TARGETS.get(5)));
    deleteTree(java.nio.file.Path.of(files));
    return new double[] {copy, reshape, baseline, raw, packed, unload, load, rawCopy};
  }

  private double rawCopy(String prefix) {
    return metered(
        "raw_copy",
        () ->
            RawCopy.copy(
                session,
                keyspace + "." + prefix + SOURCE,
                keyspace + "." + prefix + TARGETS.get(6),
                DEFAULT_SPLIT_COUNT,
                SparkSession.active().sparkContext().defaultParallelism()));
  }

  /**
   * Runs one phase; in a counted run (not the warm-up) adds each process's CPU time over it to
   * {@link #cpuByPhase}.
   */
  private double metered(String phase, DoubleSupplier work) {
    awaitNoCompactions();
    err.println("perf migrate: phase " + phase + (counting ? "" : " (warm-up)"));
    Map<String, Duration> before = cpu.sample();
    double seconds = work.getAsDouble();
    if (counting) {
      cpu.accumulate(before, cpuByPhase.computeIfAbsent(phase, p -> new LinkedHashMap<>()));
    }
    return seconds;
  }

  /**
   * Waits, at most {@value #QUIET_WAIT_SECONDS} s, until the node runs no compaction, so that a
   * phase does not pay for the compaction of what the one before it wrote.
   */
  private void awaitNoCompactions() {
    long deadline = System.nanoTime() + Duration.ofSeconds(QUIET_WAIT_SECONDS).toNanos();
    while (System.nanoTime() < deadline
        && session.execute("SELECT task_id FROM system_views.sstable_tasks").one() != null) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** Each process's CPU time over each phase of the counted runs, by phase name. */
  Map<String, Map<String, Duration>> cpuByPhase() {
    return cpuByPhase;
  }

  private void createTargets(String prefix) {
    for (String table : TARGETS) {
      ddl(
          "CREATE TABLE "
              + keyspace
              + "."
              + prefix
              + table
              + " "
              + (table.endsWith("_compact") ? COMPACT : HISTORY));
    }
  }

  /**
   * A reshaper job in this JVM, with {@code -Dvarve.perf.job} appended to its file; returns
   * seconds.
   */
  private double timeJob(String prefix, String target, String extra) {
    return timeJob(side("source", prefix + SOURCE), side("target", prefix + target), extra, target);
  }

  /** A job of these two sides in this JVM; returns seconds. */
  double timeJob(String sourceSide, String targetSide, String extra, String target) {
    String yaml =
        sourceSide
            + targetSide
            + "savepoints:\n  path: "
            + System.getProperty("java.io.tmpdir")
            + "/varve-perf-"
            + System.nanoTime()
            + "\n"
            + extra
            + System.getProperty("varve.perf.job", "").replace("\\n", "\n");
    long start = System.nanoTime();
    Outcome status =
        new ReshapeJob(JobConfigLoader.parse(yaml), err, err).run(ReshapeJob.Kind.COPY, false);
    double seconds = (System.nanoTime() - start) / 1e9;
    if (status != Outcome.OK) {
      throw new IllegalStateException("the job into " + target + " ended with " + status);
    }
    return seconds;
  }

  /** One side of a job file; the source gets {@code -Dvarve.perf.source} too. */
  String side(String side, String table) {
    String extra = side.equals("source") ? System.getProperty("varve.perf.source", "") : "";
    String section = jobSide(side, address, keyspace, table);
    int body = section.indexOf('\n') + 1;
    return section.substring(0, body) + extra.replace("\\n", "\n") + section.substring(body);
  }

  /** The section {@code side} of a job file: the table on the Cassandra at {@code address}. */
  public static String jobSide(
      String side, InetSocketAddress address, String keyspace, String table) {
    return side
        + ":\n  host: "
        + address.getHostString()
        + "\n  port: "
        + address.getPort()
        + "\n  localDC: "
        + LocalCassandraSettings.DATACENTER
        + "\n  keyspace: "
        + keyspace
        + "\n  table: "
        + table
        + "\n";
  }

  /**
   * The connector's DataFrame copy with its defaults, as the existing migrators do it; returns
   * seconds.
   */
  private double baseline(String prefix) {
    SparkSession spark = SparkSession.active();
    spark.conf().set("spark.cassandra.connection.host", address.getHostString());
    spark.conf().set("spark.cassandra.connection.port", Integer.toString(address.getPort()));
    spark.conf().set("spark.cassandra.connection.localDC", LocalCassandraSettings.DATACENTER);
    long start = System.nanoTime();
    spark
        .read()
        .format("org.apache.spark.sql.cassandra")
        .options(Map.of("keyspace", keyspace, "table", prefix + SOURCE))
        .load()
        .write()
        .format("org.apache.spark.sql.cassandra")
        .options(Map.of("keyspace", keyspace, "table", prefix + TARGETS.get(2)))
        .mode("append")
        .save();
    return (System.nanoTime() - start) / 1e9;
  }

  private static void deleteTree(java.nio.file.Path dir) {
    try (var paths = java.nio.file.Files.walk(dir)) {
      for (var p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
        java.nio.file.Files.deleteIfExists(p);
      }
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }

  void ddl(String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(120)));
  }
}
