package io.varve.perf.migrate;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.LocalServer;
import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Listeners;
import io.varve.reshaper.job.SparkSupport;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import org.apache.spark.sql.SparkSession;

/**
 * {@code varve perf migrate}: generates the users' case and times, in one JVM and one embedded
 * Spark, the {@link MigratePhases}. Spark, the JIT and the connections first warm up on a table a
 * tenth the size, untimed, until the JIT compilers settle ({@link #warmUp}); then the phases run
 * {@code repeat} times into fresh target tables and the figures are the medians. Prints {@code
 * key=value} lines; progress goes to standard error.
 */
final class MigrateBenchmark {
  private static final int MAX_WARMUP_ROUNDS = 4;

  private final Environment environment;
  private final int rows;
  private final String keyspace;
  private final int taskSlots;
  private final int repeat;
  private final int dynamoDbItems;
  private final PrintStream out;
  private final CpuMeter cpu = new CpuMeter().add("client", ProcessHandle.current().pid());

  /**
   * @param taskSlots Spark task threads of the embedded mode, 0 = its default
   * @param repeat how many times the phases run; the figures are the medians
   */
  MigrateBenchmark(
      Environment environment,
      int rows,
      String keyspace,
      int taskSlots,
      int repeat,
      int dynamoDbItems,
      PrintStream out) {
    this.environment = environment;
    this.rows = rows;
    this.keyspace = keyspace;
    this.taskSlots = taskSlots;
    this.repeat = repeat;
    this.dynamoDbItems = dynamoDbItems;
    this.out = out;
  }

  /**
   * Runs on the database at {@code cassandra} (host:port), or on the local one (started if need be)
   * when null.
   */
  void run(String cassandra) throws Exception {
    InetSocketAddress address;
    if (cassandra == null) {
      LocalServer local = environment.cassandra();
      environment.awaitReady();
      environment.progress(
          "Cassandra at "
              + local.address()
              + (local.startedHere() ? " (started)" : " (already running)"));
      address = contactPoint(local.address());
      cpu.add("cassandra", local.pid());
    } else {
      address = contactPoint(cassandra);
      Listeners.pidOf(address.getPort()).ifPresent(pid -> cpu.add("cassandra", pid));
    }
    CqlSession session =
        environment.closeAtEnd(
            "close the CQL session",
            CqlSession.builder()
                .addContactPoint(address)
                .withLocalDatacenter(LocalCassandraSettings.DATACENTER)
                .build());
    measure(new MigratePhases(session, address, keyspace, cpu, System.err));
  }

  private void measure(MigratePhases phases) throws Exception {
    phases.createSchema();
    kv("rows", rows);
    kv("cores", Runtime.getRuntime().availableProcessors());
    kv("repeat", repeat);
    kv("generate_seconds", phases.generate("", rows));

    // Spark, the JIT and the connections warm up on a table a tenth the size, untimed, so that
    // each figure measures the work and not the JVM's start.
    int warmupRows = Math.max(1000, rows / 10);
    phases.generate("warmup_", warmupRows);
    SparkSupport.session(
        taskSlots > 0 ? Map.of("spark.master", "local[" + taskSlots + ",3]") : Map.of());
    kv("task_slots", SparkSession.active().sparkContext().defaultParallelism());
    kv("warmup_rounds", warmUp(phases, warmupRows));
    double[][] runs = new double[repeat][];
    for (int i = 0; i < repeat; i++) {
      if (i > 0) {
        phases.recreateTargets();
      }
      runs[i] = phases.run("", rows);
      environment.progress(
          String.format(
              Locale.ROOT, "repetition %d/%d: %s", i + 1, repeat, Arrays.toString(runs[i])));
    }
    int count = MigratePhases.NAMES.size();
    double[] seconds = new double[count];
    for (int p = 0; p < count; p++) {
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
        out.println(MigratePhases.NAMES.get(p) + "_seconds_each=" + all);
      }
    }
    for (int p = 0; p < count; p++) {
      kv(MigratePhases.NAMES.get(p) + "_seconds", seconds[p]);
      kv(MigratePhases.NAMES.get(p) + "_rows_per_s", rows / seconds[p]);
    }
    kv("copy_vs_baseline", seconds[2] / seconds[0]);
    kv("reshape_vs_baseline", seconds[2] / seconds[1]);
    kv("copy_vs_raw_ingest", seconds[3] / seconds[0]);
    kv("copy_vs_raw_ingest_packed", seconds[4] / seconds[0]);
    // the same rows: Parquet files loaded, against packed raw ingest
    kv("parquet_load_vs_raw_ingest", seconds[4] / seconds[6]);
    // the ceiling of a copy on this node: the driver alone reading and writing the same rows
    kv("raw_copy_vs_raw_ingest_packed", seconds[4] / seconds[7]);
    kv("copy_vs_raw_copy", seconds[7] / seconds[0]);
    // where the cores went: CPU microseconds per source row, by phase and process
    phases
        .cpuByPhase()
        .forEach(
            (phase, byProcess) ->
                byProcess.forEach(
                    (process, time) ->
                        kv(
                            phase + "_cpu_us_per_row." + process,
                            time.toNanos() / 1e3 / ((double) rows * repeat))));
    if (dynamoDbItems > 0) {
      measureDynamoDb(phases);
    }
  }

  /**
   * Runs the phases on the warm-up tables until the JIT compilers of this JVM and the node settle:
   * until a round's compiler threads take under {@value CpuMeter#SETTLED_JIT_SHARE} of the CPU time
   * of the round, at most {@value #MAX_WARMUP_ROUNDS} rounds. A compiler still busy in a timed
   * phase takes cores from it (on two cores, a C2 thread took a third of this JVM's CPU time in the
   * first counted copy after a single round). Returns the rounds run.
   */
  private int warmUp(MigratePhases phases, int warmupRows) {
    for (int round = 1; ; round++) {
      Map<String, Duration> before = cpu.sample();
      phases.run("warmup_", warmupRows);
      Map<String, Duration> used = new LinkedHashMap<>();
      cpu.accumulate(before, used);
      double share = CpuMeter.jitShare(used);
      double all = CpuMeter.seconds(used);
      environment.progress(
          String.format(
              Locale.ROOT,
              "warm-up round %d: JIT compilers %.1f s of %.1f s CPU (%.0f %%)",
              round,
              share * all,
              all,
              share * 100));
      if (share < CpuMeter.SETTLED_JIT_SHARE || round == MAX_WARMUP_ROUNDS) {
        return round;
      }
    }
  }

  /**
   * The DynamoDB pair, side by side: a plain parallel Scan of DynamoDB Local and the reshaper's
   * copy of the same table into a CQL table, with as many segments as task slots.
   */
  private void measureDynamoDb(MigratePhases phases) throws Exception {
    LocalServer local = environment.dynamoDb();
    environment.awaitReady();
    int segments = SparkSession.active().sparkContext().defaultParallelism();
    DynamoDbPhases dynamo =
        new DynamoDbPhases(URI.create(local.address()), dynamoDbItems, segments);
    kv("dynamodb_items", dynamoDbItems);
    kv("dynamodb_load_seconds", dynamo.load());
    double[] scans = new double[repeat];
    double[] copies = new double[repeat];
    for (int i = 0; i < repeat; i++) {
      scans[i] = dynamo.rawScan();
      phases.ddl("DROP TABLE IF EXISTS " + keyspace + ".dynamodb_copy");
      phases.ddl("CREATE TABLE " + keyspace + ".dynamodb_copy " + DynamoDbPhases.targetDdl());
      copies[i] =
          phases.timeJob(
              dynamo.source(), phases.side("target", "dynamodb_copy"), "", "dynamodb_copy");
    }
    double scan = median(scans);
    double copy = median(copies);
    kv("dynamodb_raw_scan_seconds", scan);
    kv("dynamodb_raw_scan_rows_per_s", dynamoDbItems / scan);
    kv("dynamodb_copy_seconds", copy);
    kv("dynamodb_copy_rows_per_s", dynamoDbItems / copy);
    kv("dynamodb_scan_vs_raw_scan", scan / copy);
  }

  static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    int n = sorted.length;
    return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
  }

  /** A figure: whole numbers above 10 without decimals, the rest with two. */
  private void kv(String key, double value) {
    out.println(
        key
            + "="
            + String.format(
                Locale.ROOT, value == Math.rint(value) && value > 10 ? "%.0f" : "%.2f", value));
  }

  /** {@code host:port}, or {@code host} for port 9042. */
  private static InetSocketAddress contactPoint(String hostPort) {
    int colon = hostPort.lastIndexOf(':');
    return colon < 0
        ? new InetSocketAddress(hostPort, 9042)
        : new InetSocketAddress(
            hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
  }
}
