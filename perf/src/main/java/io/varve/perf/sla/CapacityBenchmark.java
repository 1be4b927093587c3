package io.varve.perf.sla;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.bench.load.LoaderCpu;
import io.varve.bench.result.CapacitySummary;
import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.RunResult;
import io.varve.command.ExitStatus;
import io.varve.perf.dataplane.CassandraSettle;
import io.varve.perf.environment.Environment;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code varve perf capacity}: the capacity at which each binding meets the SLA on this machine, in
 * one run. Starts what the bindings need as {@code perf sla} does, measures the loader's ceiling,
 * then per binding populates the data set, waits for Cassandra to settle (the flushes and
 * compactions of the load), and runs {@code varve bench capacity} on workload A (uniform keys) with
 * the SLA; last {@code bench cost} over the searches with a pricing file and one report. Prints
 * {@code key=value} lines: each binding's capacity and its load at that rate (the loader's CPU per
 * operation, the nodes' and the server's CPU in cores, the nodes' pending tasks), the loader's
 * ceiling, {@code kv.capacity.ratio} (Varve KeyValue's capacity over raw CQL's) and the cost lines.
 */
final class CapacityBenchmark {

  /**
   * What a run does, from its options.
   *
   * @param records records of the cql and varve data sets
   * @param dynamoDbRecords records of the DynamoDB Local data set
   * @param seconds measured seconds of each step
   * @param warmup warm-up seconds of each step
   * @param firstWarmup warm-up seconds of each search's first step
   * @param threads client threads
   * @param start the first target of each search
   * @param sla the SLA
   * @param bindings the bindings, in order
   * @param pricing the pricing file of the cost lines
   * @param out where everything goes
   */
  record Plan(
      int records,
      int dynamoDbRecords,
      int seconds,
      int warmup,
      int firstWarmup,
      int threads,
      int start,
      String sla,
      List<String> bindings,
      Path pricing,
      Path out) {}

  private static final Duration SETTLE_LIMIT = Duration.ofMinutes(3);

  private final Environment environment;
  private final Plan plan;
  private final BenchProcess bench;

  CapacityBenchmark(Environment environment, Plan plan) {
    this.environment = environment;
    this.plan = plan;
    this.bench = new BenchProcess(environment.home());
  }

  void run(PrintStream out) throws Exception {
    Files.createDirectories(plan.out());
    SlaBenchmark.startServers(environment, plan.bindings());
    out.println("machine: " + SlaSummary.machine());
    out.println("out=" + plan.out());
    out.println("sla=" + plan.sla());
    SlaBenchmark.loaderCeiling(environment, bench, plan.out(), plan.records());
    RunResult ceiling = ResultFiles.read(plan.out().resolve("loader-ceiling.json"));
    out.printf(Locale.ROOT, "loader.ceiling.ops_per_s=%.0f%n", ceiling.throughput());

    Map<String, Long> capacities = new LinkedHashMap<>();
    List<String> searches = new ArrayList<>();
    for (String binding : plan.bindings()) {
      int records = binding.equals("dynamodb") ? plan.dynamoDbRecords() : plan.records();
      List<String> population =
          new ArrayList<>(
              List.of(
                  "load",
                  binding,
                  "--label",
                  binding + "-population",
                  "--result",
                  file(binding + "-population.json").toString(),
                  "-P",
                  SlaBenchmark.workload(environment, "population"),
                  "-threads",
                  Integer.toString(plan.threads()),
                  "-p",
                  "recordcount=" + records));
      population.addAll(SlaBenchmark.bindingProperties(binding));
      bench(binding + "-population", population, ExitStatus.OK);
      if (!binding.equals("dynamodb")) {
        // the flushes and compactions the load left behind, before the first step measures them
        try (CqlSession session =
            CqlSession.builder()
                .addContactPoint(new InetSocketAddress("127.0.0.1", 9042))
                .withLocalDatacenter("datacenter1")
                .build()) {
          out.printf(
              Locale.ROOT,
              "settle.%s.cassandra_s=%.1f%n",
              binding,
              new CassandraSettle(session).await(SETTLE_LIMIT));
        }
      }

      Path dir = file(binding + "-capacity");
      List<String> search =
          new ArrayList<>(
              List.of(
                  "capacity",
                  binding,
                  "--label",
                  binding,
                  "--result-dir",
                  dir.toString(),
                  "-P",
                  SlaBenchmark.workload(environment, "uniform"),
                  "-threads",
                  Integer.toString(plan.threads()),
                  "-p",
                  "recordcount=" + records,
                  "--sla",
                  plan.sla(),
                  "--seconds",
                  Integer.toString(plan.seconds()),
                  "--warmup",
                  Integer.toString(plan.warmup()),
                  "--first-warmup",
                  Integer.toString(plan.firstWarmup()),
                  "--start",
                  Integer.toString(plan.start())));
      search.addAll(SlaBenchmark.bindingProperties(binding));
      if (binding.startsWith("varve")) {
        // the Cassandra behind the server, beside the server's own metrics
        search.addAll(
            List.of("-p", "serverload.cql=true", "-p", "hosts=127.0.0.1", "-p", "port=9042"));
      }
      bench(binding + "-capacity", search, ExitStatus.OK, ExitStatus.COMPLETED_WITH_ERRORS);
      CapacitySummary summary = ResultFiles.readCapacity(dir);
      capacities.put(binding, summary.capacityOpsPerSec());
      searches.add(dir.toString());
      out.println("capacity." + binding + ".ops_per_s=" + summary.capacityOpsPerSec());
      atCapacity(out, binding, summary, dir);
    }
    Long kv = capacities.get("varve-kv");
    Long cql = capacities.get("cql");
    if (kv != null && cql != null && cql > 0) {
      out.printf(Locale.ROOT, "kv.capacity.ratio=%.3f%n", kv / (double) cql);
    }
    List<String> cost = new ArrayList<>(List.of("cost", "--pricing", plan.pricing().toString()));
    cost.addAll(searches);
    bench("cost", cost, ExitStatus.OK, ExitStatus.COMPLETED_WITH_ERRORS);
    for (String line : Files.readAllLines(file("cost.txt"))) {
      out.print(costFigures(line));
    }
    List<String> report =
        new ArrayList<>(
            List.of(
                "report",
                "-o",
                file("report.html").toString(),
                "--pricing",
                plan.pricing().toString()));
    for (String s : searches) {
      report.addAll(List.of("--capacity", s));
    }
    // the loader's ceiling beside the searches, so that nobody takes it for a server's limit
    report.add(file("loader-ceiling.json").toString());
    bench("report", report, ExitStatus.OK);
    out.println("report=" + file("report.html"));
  }

  /**
   * A cost line of {@code bench cost} as figures of one key each: {@code cost.monthly=<amount>
   * system=<name> yearly=<amount>} as {@code cost.<name>.monthly} and {@code cost.<name>.yearly},
   * {@code cost.ratio=<x> system=<name> cheapest=<name>} as {@code cost.<name>.ratio}; any other
   * line as nothing.
   */
  static String costFigures(String line) {
    Map<String, String> fields = new LinkedHashMap<>();
    for (String word : line.trim().split("\\s+")) {
      int eq = word.indexOf('=');
      if (eq > 0) {
        fields.put(word.substring(0, eq), word.substring(eq + 1));
      }
    }
    String system = fields.get("system");
    if (system == null) {
      return "";
    }
    if (fields.containsKey("cost.monthly")) {
      return String.format(
          Locale.ROOT,
          "cost.%s.monthly=%s cost.%s.yearly=%s%n",
          system,
          fields.get("cost.monthly"),
          system,
          fields.get("yearly"));
    }
    if (fields.containsKey("cost.ratio")) {
      return String.format(Locale.ROOT, "cost.%s.ratio=%s%n", system, fields.get("cost.ratio"));
    }
    return "";
  }

  /** The load beside the step that held at the capacity. */
  private static void atCapacity(
      PrintStream out, String binding, CapacitySummary summary, Path dir) {
    for (CapacitySummary.Step step : summary.steps()) {
      if (!step.held() || step.target() != summary.capacityOpsPerSec()) {
        continue;
      }
      RunResult run = ResultFiles.read(dir.resolve(step.file()));
      double seconds = run.durationMs() / 1000.0;
      Map<String, Double> load = run.load();
      String at = "at_capacity." + binding + ".";
      out.printf(
          Locale.ROOT, "%sthroughput=%.0f %sp99_ms=%.2f%n", at, run.throughput(), at, step.p99Ms());
      Double loader = load.get(LoaderCpu.CPU_MS);
      if (loader != null && run.count() > 0) {
        out.printf(
            Locale.ROOT,
            "%sloader_cpu_us_per_op=%.1f %sloader_cpu_cores=%.2f%n",
            at,
            loader * 1000 / run.count(),
            at,
            loader / 1000 / seconds);
      }
      for (String cpu : List.of("cql.cpu_ms", "varve_server.cpu_ms")) {
        Double ms = load.get(cpu);
        if (ms != null) {
          out.printf(
              Locale.ROOT,
              "%s%s_cores=%.2f%n",
              at,
              cpu.substring(0, cpu.length() - "_ms".length()),
              ms / 1000 / seconds);
        }
      }
      for (String level : List.of("cql.pending.max", "varve_server.cpu_usage.mean")) {
        Double v = load.get(level);
        if (v != null) {
          out.printf(Locale.ROOT, "%s%s=%.2f%n", at, level, v);
        }
      }
      return;
    }
  }

  private void bench(String label, List<String> args, ExitStatus... accepted) throws Exception {
    int status = bench.run(List.of(), args, file(label + ".txt"), file(label + ".log"));
    for (ExitStatus ok : accepted) {
      if (status == ok.code()) {
        return;
      }
    }
    throw SlaBenchmark.failed(plan.out(), label, status);
  }

  private Path file(String name) {
    return plan.out().resolve(name);
  }
}
