package io.varve.perf.sla;

import io.varve.command.ExitStatus;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.LocalServer;
import io.varve.perf.environment.VarveServer;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code varve perf sla}: the SLA benchmark's figures on this machine, in one run. Uses what runs
 * and starts what does not (the local OpenSearch, Cassandra and Varve server of {@code varve up},
 * DynamoDB Local), measures the loader's own ceiling on one core, then for each binding populates
 * the data set and runs the three workload-A scenarios at a fixed target rate with an SLA, each run
 * a {@code varve bench} command of its own. Writes one result file per run and, per scenario, an
 * HTML report putting the bindings side by side, and prints {@code key=value} lines ({@link
 * SlaSummary}).
 */
final class SlaBenchmark {

  private final Environment environment;
  private final SlaPlan plan;
  private final BenchProcess bench;

  SlaBenchmark(Environment environment, SlaPlan plan) {
    this.environment = environment;
    this.plan = plan;
    this.bench = new BenchProcess(environment.home());
  }

  void run(PrintStream out) throws Exception {
    Files.createDirectories(plan.out());
    startServers(environment, plan.bindings());
    out.println("machine: " + SlaSummary.machine());
    out.println("out=" + plan.out());
    loaderCeiling(environment, bench, plan.out(), plan.records());
    for (String binding : plan.bindings()) {
      int records = plan.records(binding);
      List<String> population =
          new ArrayList<>(
              List.of(
                  "-P",
                  workload("population"),
                  "-threads",
                  Integer.toString(plan.threads()),
                  "-p",
                  "recordcount=" + records));
      population.addAll(bindingProperties(binding));
      run(binding + "-population", "load", binding, population);
      for (String scenario : SlaPlan.SCENARIOS) {
        List<String> args =
            new ArrayList<>(
                List.of(
                    "-P",
                    workload(scenario),
                    "-threads",
                    Integer.toString(plan.threads()),
                    "-target",
                    Integer.toString(plan.target()),
                    "-p",
                    "recordcount=" + records,
                    "-p",
                    "maxexecutiontime=" + (plan.seconds() + plan.warmup() + 1),
                    "--warmup",
                    Integer.toString(plan.warmup())));
        if (scenario.equals("zipfian-hotset")) {
          args.addAll(List.of("-p", "hotset.size=" + records / 100));
        }
        args.addAll(bindingProperties(binding));
        args.addAll(List.of("--sla", plan.sla()));
        run(binding + "-" + scenario, "run", binding, args);
      }
    }
    report();
    new SlaSummary(plan.out()).print(out, plan.sla());
  }

  /**
   * What the bindings need, as {@code varve up} starts it when it does not run: OpenSearch,
   * Cassandra and the Varve server; DynamoDB Local for the {@code dynamodb} binding.
   */
  static void startServers(Environment environment, List<String> bindings) throws Exception {
    if (VarveServer.up(environment).isEmpty()) {
      // As `varve up`: OpenSearch first, as it fails at once when no JDK 21+ is found.
      LocalServer openSearch = environment.openSearch();
      LocalServer cassandra = environment.cassandra();
      environment.awaitReady();
      VarveServer.startUp(
          environment,
          List.of("--cassandra", cassandra.address(), "--opensearch", openSearch.address()));
    }
    if (bindings.contains("dynamodb")) {
      environment.dynamoDb();
      environment.awaitReady();
    }
  }

  /**
   * The loader's own ceiling: one core (when taskset exists), one thread, a binding that does
   * nothing; {@code loader-ceiling.json} in {@code out}.
   */
  static void loaderCeiling(Environment environment, BenchProcess bench, Path out, int records)
      throws Exception {
    List<String> pin = onPath("taskset") ? List.of("taskset", "-c", "0") : List.of();
    Path result = out.resolve("loader-ceiling.json");
    int status =
        bench.run(
            pin,
            List.of(
                "run",
                "noop",
                "--label",
                "loader-ceiling",
                "--result",
                result.toString(),
                "-P",
                workload(environment, "uniform"),
                "-threads",
                "1",
                "-p",
                "maxexecutiontime=10",
                "-p",
                "recordcount=" + records),
            out.resolve("loader-ceiling.txt"),
            out.resolve("loader-ceiling.log"));
    if (status != 0) {
      throw failed(out, "loader-ceiling", status);
    }
  }

  /**
   * One run, its output in {@code <label>.txt} and {@code <label>.log}; a missed SLA ({@code
   * COMPLETED_WITH_ERRORS}, docs/exit-status.md) is a result like any other here.
   */
  private void run(String label, String phase, String binding, List<String> args) throws Exception {
    List<String> command =
        new ArrayList<>(
            List.of(
                phase, binding, "--label", label, "--result", file(label + ".json").toString()));
    command.addAll(args);
    int status = bench.run(List.of(), command, file(label + ".txt"), file(label + ".log"));
    if (status != ExitStatus.OK.code() && status != ExitStatus.COMPLETED_WITH_ERRORS.code()) {
      throw failed(label, status);
    }
  }

  /** One report per scenario, the bindings side by side. */
  private void report() throws Exception {
    for (String scenario : List.of("population", "uniform", "zipfian-hotset", "hot-partition")) {
      List<String> args =
          new ArrayList<>(List.of("report", "-o", file("report-" + scenario + ".html").toString()));
      for (String binding : plan.bindings()) {
        Path result = file(binding + "-" + scenario + ".json");
        if (Files.isRegularFile(result)) {
          args.add(result.toString());
        }
      }
      int status = bench.run(List.of(), args, null, null);
      if (status != 0) {
        throw new IllegalStateException(
            "the report of " + scenario + " failed (exit " + status + ")");
      }
    }
  }

  /** The properties that point a binding at the servers {@link #startServers} runs. */
  static List<String> bindingProperties(String binding) {
    return switch (binding) {
      case "cql" ->
          List.of(
              "-p",
              "hosts=127.0.0.1",
              "-p",
              "port=9042",
              "-p",
              "cassandra.keyspace=ycsb",
              "-p",
              "cassandra.create=true");
      case "varve" ->
          List.of(
              "-p",
              "varve.url=http://127.0.0.1:" + VarveServer.UP_PORT,
              "-p",
              "varve.namespace=ycsb",
              "-p",
              "varve.create=true");
      case "varve-kv" ->
          List.of(
              "-p",
              "varve.url=http://127.0.0.1:" + VarveServer.UP_PORT,
              "-p",
              "varve.namespace=ycsb_kv",
              "-p",
              "varve.create=true");
      case "dynamodb" ->
          List.of(
              "-p",
              "dynamodb.endpoint=http://127.0.0.1:8000",
              "-p",
              "dynamodb.create=true",
              "-p",
              "dynamodb.consistentReads=true");
      default -> List.of();
    };
  }

  private IllegalStateException failed(String label, int status) {
    return failed(plan.out(), label, status);
  }

  static IllegalStateException failed(Path out, String label, int status) {
    Path log = out.resolve(label + ".log");
    return new IllegalStateException(
        label + " failed (exit " + status + "); see " + log + "\n" + BenchProcess.tail(log, 5));
  }

  private Path file(String name) {
    return plan.out().resolve(name);
  }

  private String workload(String name) {
    return workload(environment, name);
  }

  static String workload(Environment environment, String name) {
    return environment.home().resolve("workloads").resolve("sla-" + name).toString();
  }

  private static boolean onPath(String program) {
    for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
      if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, program))) {
        return true;
      }
    }
    return false;
  }
}
