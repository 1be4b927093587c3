package io.varve.verify.reliability;

import io.varve.command.ExitStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code varve verify reliability}: starts a Cassandra and a Varve server of its own, runs the
 * fault and overload phases against them, prints {@code key=value} lines and {@code
 * reliability.result=pass|fail}, and exits with {@code OK} only when every check held: {@code
 * COMPLETED_WITH_ERRORS} when a check failed, {@code ABORTED_FATAL_ERROR} when its servers could
 * not be started or started again between phases ({@code reliability.error}). docs/reliability.md
 * says what each phase does and checks.
 */
@Command(
    name = "reliability",
    mixinStandardHelpOptions = true,
    description =
        "kill -9 of Cassandra, the server and a reshaper job during work, a 10x overload and"
            + " concurrent reads of large values, on local servers this command starts; key=value"
            + " results, exit 0 only on pass.")
public final class ReliabilityCommand implements Callable<Integer> {

  static final List<String> ALL_PHASES =
      List.of("cassandra_kill", "server_kill", "reshaper_kill", "overload", "large_reads");

  @Option(
      names = "--phases",
      split = ",",
      paramLabel = "PHASE",
      description =
          "Phases to run, in this order: cassandra_kill, server_kill, reshaper_kill, overload, "
              + "large_reads (default: all).")
  List<String> phases = ALL_PHASES;

  @Option(
      names = "--duration",
      paramLabel = "SECONDS",
      description = "Overload: seconds at the high rate " + "(default: ${DEFAULT-VALUE}).")
  int durationSeconds = 60;

  @Option(
      names = "--calibration",
      paramLabel = "SECONDS",
      description =
          "Overload: seconds of the closed-loop "
              + "phase that measures the sustainable rate (default: ${DEFAULT-VALUE}).")
  int calibrationSeconds = 15;

  @Option(
      names = "--factor",
      description = "Overload: multiple of the sustainable rate (default: ${DEFAULT-VALUE}).")
  int factor = 10;

  @Option(
      names = "--batch-events",
      description = "Overload: events per batch (default: ${DEFAULT-VALUE}).")
  int batchEvents = 500;

  @Option(
      names = "--value-bytes",
      description = "Overload: bytes per event value (default: ${DEFAULT-VALUE}).")
  int valueBytes = 4096;

  @Option(
      names = "--max-in-flight",
      description =
          "Overload: requests the client keeps outstanding at most "
              + "(default: ${DEFAULT-VALUE}).")
  int maxInFlight = 256;

  @Option(
      names = "--large-value-bytes",
      description =
          "Large reads: bytes of the stored value read concurrently (default: ${DEFAULT-VALUE},"
              + " the server's largest).")
  int largeValueBytes = 64 * 1024 * 1024;

  @Option(
      names = "--large-readers",
      description =
          "Large reads: calls of each transport (JSON, gRPC) sent at once (default:"
              + " ${DEFAULT-VALUE}).")
  int largeReaders = 8;

  @Option(
      names = "--large-rounds",
      description =
          "Large reads: bursts of GetItems, ScanItems and MutateItems (default: ${DEFAULT-VALUE}).")
  int largeRounds = 3;

  @Option(
      names = "--large-events",
      description =
          "Large reads: TimeSeries events of three 2 MiB items stored in one series, then read a"
              + " page of all of them by as many readers at once as values are (default:"
              + " ${DEFAULT-VALUE}; 0 leaves TimeSeries out).")
  int largeEvents = 90;

  @Option(
      names = "--server-heap",
      description =
          "Heap of the server under test, -Xms and -Xmx "
              + "(default: ${DEFAULT-VALUE}, as ./varve up).")
  String serverHeap = "1g";

  @Option(
      names = "--rss-allowance-mb",
      description =
          "Overload and large reads: resident memory allowed beyond the heap "
              + "(metaspace, code, threads, direct buffers) (default: ${DEFAULT-VALUE}).")
  long rssAllowanceMb = 512;

  @Option(
      names = "--read-p99-limit-ms",
      description = "Overload: bound of the small read's p99 " + "(default: ${DEFAULT-VALUE}).")
  long readP99LimitMs = 2000;

  @Option(
      names = "--keep",
      description = "Leave the local Cassandra and the server running at the end.")
  boolean keep;

  @Option(
      names = "--varve-home",
      description =
          "The Varve checkout (default: the varve.home system property, "
              + "else the working directory).")
  Path varveHome;

  @Override
  public Integer call() throws Exception {
    List<Phase> selected = selectedPhases();
    Path home =
        varveHome != null
            ? varveHome
            : Path.of(
                System.getProperty("varve.home", "").isEmpty()
                    ? "."
                    : System.getProperty("varve.home"));
    Results results = new Results(System.out);
    boolean environmentFailed = false;
    long started = System.nanoTime();
    results.put("reliability.phases", String.join(",", phases));
    results.put(
        "reliability.durability",
        "commitlog_sync=batch (an acknowledged write was fsynced to the commit"
            + " log before the answer)");
    try (VerifyEnvironment env =
        new VerifyEnvironment(home.toAbsolutePath().normalize(), serverHeap, keep)) {
      Runtime.getRuntime()
          .addShutdownHook(
              new Thread(
                  () -> {
                    if (!keep) {
                      env.server().stop(VerifyEnvironment.SERVER_STOP_TIMEOUT);
                    }
                  }));
      env.start(results);
      for (Phase phase : selected) {
        runPhase(phase, env, results);
      }
    } catch (Exception e) {
      environmentFailed = true;
      results.fail(
          "reliability.error", String.valueOf(e.getMessage() == null ? e : e.getMessage()));
    }
    results.put("reliability.seconds", (System.nanoTime() - started) / 1e9);
    results.put("reliability.failures", results.failures().size());
    results.put("reliability.result", results.passed() ? "pass" : "fail");
    return exitStatus(results, environmentFailed).code();
  }

  /**
   * A failed check completes with errors; servers that could not be started or restarted abort the
   * run.
   */
  static ExitStatus exitStatus(Results results, boolean environmentFailed) {
    if (results.passed()) {
      return ExitStatus.OK;
    }
    return environmentFailed ? ExitStatus.ABORTED_FATAL_ERROR : ExitStatus.COMPLETED_WITH_ERRORS;
  }

  private void runPhase(Phase phase, VerifyEnvironment env, Results results) throws Exception {
    int failuresBefore = results.failures().size();
    long started = System.nanoTime();
    try {
      phase.run(env, results);
    } catch (Exception e) {
      results.fail(phase.name() + ".error", e.getClass().getSimpleName() + ": " + e.getMessage());
    }
    results.put(phase.name() + ".seconds", (System.nanoTime() - started) / 1e9);
    results.put(
        phase.name() + ".result", results.failures().size() == failuresBefore ? "pass" : "fail");
    env.ensureRunning();
  }

  List<Phase> selectedPhases() {
    List<Phase> selected = new ArrayList<>();
    for (String name : phases) {
      selected.add(
          switch (name.trim()) {
            case "cassandra_kill" ->
                new CassandraKillPhase(Duration.ofSeconds(10), Duration.ofSeconds(10));
            case "server_kill" -> new ServerKillPhase(Duration.ofSeconds(8));
            case "reshaper_kill" -> new ReshaperKillPhase(50, 200, 2000);
            case "overload" ->
                new OverloadPhase(
                    new OverloadPhase.Settings(
                        Duration.ofSeconds(calibrationSeconds),
                        Duration.ofSeconds(durationSeconds),
                        factor,
                        batchEvents,
                        valueBytes,
                        maxInFlight,
                        rssAllowanceMb,
                        readP99LimitMs));
            case "large_reads" ->
                new LargeReadPhase(
                    new LargeReadPhase.Settings(
                        largeValueBytes, largeReaders, largeRounds, largeEvents, rssAllowanceMb));
            default ->
                throw new picocli.CommandLine.ParameterException(
                    new picocli.CommandLine(this),
                    "--phases: " + name + " (expected: " + String.join(", ", ALL_PHASES) + ")");
          });
    }
    return selected;
  }
}
