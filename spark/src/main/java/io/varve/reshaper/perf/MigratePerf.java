package io.varve.reshaper.perf;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.local.LocalCassandra;
import io.varve.local.LocalCassandraSettings;
import io.varve.local.VarveHome;
import io.varve.reshaper.config.JobConfigLoader;
import io.varve.reshaper.job.ExitStatus;
import io.varve.reshaper.job.ReshapeJob;
import io.varve.reshaper.job.SparkSupport;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * {@code varve perf migrate}: generates the users' case and times, in one JVM and one embedded
 * Spark, (a) the plain copy, (b) the compact reshape, (c) a plain spark-cassandra-connector
 * DataFrame copy, (d) raw asynchronous CQL ingest of the same rows and (e) the same ingest with
 * batches packed as the reshaper packs them. The phases run {@code repeat} times into fresh
 * target tables and the figures are the medians. Prints {@code key=value} lines on {@code out};
 * progress goes to {@code err}.
 */
public final class MigratePerf {
  private static final String HISTORY = "(partnerid text, id text, date timestamp,"
      + " PRIMARY KEY ((partnerid), date, id)) WITH CLUSTERING ORDER BY (date DESC)";
  private static final String COMPACT = "(partnerid text, id text, seen_date timestamp,"
      + " PRIMARY KEY ((partnerid), id))";

  /** The timed phases, in the order they run. */
  private static final String[] PHASES =
      {"copy", "reshape", "baseline", "raw_ingest", "raw_ingest_packed"};
  /** The tables the phases write. */
  private static final String[] TARGETS = {"ids_by_partnerid_history",
      "ids_by_partnerid_compact", "baseline_history", "raw_ingest", "raw_ingest_packed"};

  private final String cassandra;
  private final int rows;
  private final String keyspace;
  private final PrintStream out;
  private final PrintStream err;
  private final int taskSlots;
  private final int repeat;

  /**
   * @param cassandra {@code host:port}, or null to start the local development Cassandra
   * @param taskSlots Spark task threads of the embedded mode, 0 = its default
   * @param repeat how many times the phases run; the figures are the medians
   */
  public MigratePerf(String cassandra, int rows, String keyspace, int taskSlots, int repeat,
      PrintStream out, PrintStream err) {
    this.taskSlots = taskSlots;
    this.repeat = repeat;
    this.cassandra = cassandra;
    this.rows = rows;
    this.keyspace = keyspace;
    this.out = out;
    this.err = err;
  }

  /** Runs the benchmark; returns the exit status. */
  public int run() throws Exception {
    LocalCassandra started = null;
    InetSocketAddress address;
    if (cassandra == null) {
      LocalCassandra local =
          new LocalCassandra(LocalCassandraSettings.forDevelopment(VarveHome.locate()));
      // A development Cassandra that already runs is used and left running.
      boolean wasRunning = local.status().isRunning();
      local.start();
      local.awaitReady(Duration.ofMinutes(3));
      address = local.settings().cqlAddress();
      started = wasRunning ? null : local;
      err.println("perf migrate: Cassandra at " + address.getHostString() + ":"
          + address.getPort() + (wasRunning ? " (already running)" : " (started)"));
    } else {
      int colon = cassandra.lastIndexOf(':');
      address = colon < 0 ? new InetSocketAddress(cassandra, 9042)
          : new InetSocketAddress(cassandra.substring(0, colon),
              Integer.parseInt(cassandra.substring(colon + 1)));
    }
    try (CqlSession session = CqlSession.builder().addContactPoint(address)
        .withLocalDatacenter(LocalCassandraSettings.DATACENTER).build()) {
      return measure(session, address);
    } finally {
      if (started != null) {
        started.stop(Duration.ofMinutes(1));
      }
    }
  }

  private int measure(CqlSession session, InetSocketAddress address) {
    ddl(session, "DROP KEYSPACE IF EXISTS " + keyspace);
    ddl(session, "CREATE KEYSPACE " + keyspace + " WITH replication = {'class':"
        + " 'SimpleStrategy', 'replication_factor': 1}");
    for (String prefix : new String[] {"warmup_", ""}) {
      ddl(session, "CREATE TABLE " + keyspace + "." + prefix + "ids_by_partnerid " + HISTORY);
      createTargets(session, prefix);
    }
    kv("rows", rows);
    kv("cores", Runtime.getRuntime().availableProcessors());
    kv("repeat", repeat);
    double generate = RawIngest.write(session, keyspace + ".ids_by_partnerid", rows);
    kv("generate_seconds", generate);

    // Spark, the JIT and the connections warm up on a table a tenth the size, untimed, so that
    // each figure measures the work and not the JVM's start.
    int warmupRows = Math.max(1000, rows / 10);
    RawIngest.write(session, keyspace + ".warmup_ids_by_partnerid", warmupRows);
    SparkSupport.session(taskSlots > 0
        ? Map.of("spark.master", "local[" + taskSlots + ",3]") : Map.of());
    kv("task_slots", SparkSession.active().sparkContext().defaultParallelism());
    runPhases(session, address, "warmup_", warmupRows);
    double[][] runs = new double[repeat][];
    for (int i = 0; i < repeat; i++) {
      if (i > 0) {
        // Every repetition writes into empty tables, as the first one does.
        for (String table : TARGETS) {
          ddl(session, "DROP TABLE " + keyspace + "." + table);
        }
        createTargets(session, "");
      }
      runs[i] = runPhases(session, address, "", rows);
      err.printf(Locale.ROOT, "perf migrate: repetition %d/%d: %s%n", i + 1, repeat,
          Arrays.toString(runs[i]));
    }
    double[] seconds = new double[PHASES.length];
    for (int p = 0; p < PHASES.length; p++) {
      double[] values = new double[repeat];
      for (int i = 0; i < repeat; i++) {
        values[i] = runs[i][p];
      }
      seconds[p] = median(values);
      if (repeat > 1) {
        StringBuilder all = new StringBuilder();
        for (double v : values) {
          all.append(all.length() == 0 ? "" : ",").append(String.format(Locale.ROOT, "%.2f", v));
        }
        out.println(PHASES[p] + "_seconds_each=" + all);
      }
    }
    for (int p = 0; p < PHASES.length; p++) {
      report(PHASES[p], seconds[p]);
    }
    kv("copy_vs_baseline", seconds[2] / seconds[0]);
    kv("reshape_vs_baseline", seconds[2] / seconds[1]);
    kv("copy_vs_raw_ingest", seconds[3] / seconds[0]);
    kv("copy_vs_raw_ingest_packed", seconds[4] / seconds[0]);
    return 0;
  }

  private void createTargets(CqlSession session, String prefix) {
    for (String table : TARGETS) {
      ddl(session, "CREATE TABLE " + keyspace + "." + prefix + table + " "
          + (table.endsWith("_compact") ? COMPACT : HISTORY));
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /**
   * (a) copy, (b) reshape, (c) baseline, (d) raw ingest, and raw ingest with batches packed as
   * the reshaper's writer packs them, of the tables with this prefix.
   */
  private double[] runPhases(CqlSession session, InetSocketAddress address, String prefix,
      int count) {
    double copy = timeJob(address, prefix, "ids_by_partnerid_history", "");
    double reshape = timeJob(address, prefix, "ids_by_partnerid_compact",
        "renames:\n  - from: date\n    to: seen_date\n"
            + "reshape:\n  onConflict: keepMax\n  column: seen_date\n");
    double baseline = baseline(address, prefix);
    double raw = RawIngest.write(session, keyspace + "." + prefix + "raw_ingest", count);
    double packed = RawIngest.write(session, keyspace + "." + prefix + "raw_ingest_packed",
        count, 10);
    return new double[] {copy, reshape, baseline, raw, packed};
  }

  private double timeJob(InetSocketAddress address, String prefix, String target,
      String extra) {
    String yaml = side("source", prefix + "ids_by_partnerid", address)
        + side("target", prefix + target, address)
        + "savepoints:\n  path: " + System.getProperty("java.io.tmpdir") + "/varve-perf-"
        + System.nanoTime() + "\n" + extra + System.getProperty("varve.perf.job", "")
            .replace("\\n", "\n");
    long start = System.nanoTime();
    ExitStatus status = new ReshapeJob(JobConfigLoader.parse(yaml), err, err)
        .run(ReshapeJob.Kind.COPY, false);
    double seconds = (System.nanoTime() - start) / 1e9;
    if (status != ExitStatus.OK) {
      throw new IllegalStateException("the job into " + target + " ended with " + status);
    }
    return seconds;
  }

  private String side(String side, String table, InetSocketAddress address) {
    String extra = side.equals("source") ? System.getProperty("varve.perf.source", "") : "";
    return side + ":\n" + extra.replace("\\n", "\n") + "  host: " + address.getHostString() + "\n  port: " + address.getPort()
        + "\n  localDC: " + LocalCassandraSettings.DATACENTER + "\n  keyspace: " + keyspace
        + "\n  table: " + table + "\n";
  }

  /** The connector's DataFrame copy with its defaults, as the existing migrators do it. */
  private double baseline(InetSocketAddress address, String prefix) {
    SparkSession spark = SparkSession.active();
    spark.conf().set("spark.cassandra.connection.host", address.getHostString());
    spark.conf().set("spark.cassandra.connection.port", Integer.toString(address.getPort()));
    spark.conf().set("spark.cassandra.connection.localDC", LocalCassandraSettings.DATACENTER);
    long start = System.nanoTime();
    spark.read().format("org.apache.spark.sql.cassandra")
        .options(Map.of("keyspace", keyspace, "table", prefix + "ids_by_partnerid")).load()
        .write().format("org.apache.spark.sql.cassandra")
        .options(Map.of("keyspace", keyspace, "table", prefix + "baseline_history"))
        .mode("append").save();
    return (System.nanoTime() - start) / 1e9;
  }

  private void report(String name, double seconds) {
    kv(name + "_seconds", seconds);
    kv(name + "_rows_per_s", rows / seconds);
  }

  private void kv(String key, double value) {
    out.println(key + "=" + String.format(Locale.ROOT, value == Math.rint(value) && value > 10
        ? "%.0f" : "%.2f", value));
  }

  private static void ddl(CqlSession session, String cql) {
    session.execute(SimpleStatement.newInstance(cql).setTimeout(Duration.ofSeconds(120)));
  }
}
