package io.varve.perf.dataplane;

import io.varve.perf.OptionChecks;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varve perf dataplane}: the options of {@link DataPlaneBenchmark}. */
@Command(
    name = "dataplane",
    mixinStandardHelpOptions = true,
    description =
        "Benchmark the resilient data plane: buffered fire-and-forget writes against raw CQL, a"
            + " burst, an overload, hedged reads, and the server under G1 and ZGC.")
public final class DataPlaneCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--quick",
      description =
          "Short settings for a trial run: --warmup 5 --events 20000 --rounds 1 --burst-seconds 5"
              + " --overload-seconds 10 --latency-seconds 5, unless given.")
  boolean quick;

  @Option(
      names = "--warmup",
      defaultValue = "30",
      description =
          "Seconds of writes before the buffered comparison, and of requests before each latency"
              + " measurement (default: ${DEFAULT-VALUE}).")
  int warmupSeconds;

  @Option(
      names = "--events",
      defaultValue = "100000",
      description =
          "Events per side in each round of the buffered comparison (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(
      names = "--rounds",
      defaultValue = "4",
      description =
          "Rounds of the buffered comparison, each raw, API, API, raw; its ratio is over all of"
              + " them, so that a pause of Cassandra's collector in one side's half moves it less"
              + " (default: ${DEFAULT-VALUE}).")
  int rounds;

  @Option(
      names = "--batch",
      defaultValue = "100",
      description = "Events per request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(
      names = "--concurrency",
      defaultValue = "16",
      description =
          "Requests in flight per side of the buffered comparison (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(
      names = "--burst-seconds",
      defaultValue = "10",
      description = "Duration of the burst (default: ${DEFAULT-VALUE}).")
  int burstSeconds;

  @Option(
      names = "--burst-factor",
      defaultValue = "5",
      description = "The burst's rate ÷ the sustainable rate (default: ${DEFAULT-VALUE}).")
  int burstFactor;

  @Option(
      names = "--burst-drain-percent",
      defaultValue = "50",
      description =
          "The namespace's queueBuffering.drainRate during the burst, in percent of the sustainable"
              + " rate measured with nothing else running (during the burst the server's intake"
              + " shares the machine with Cassandra); 0 drains unpaced, as fast as Cassandra takes"
              + " it (default: ${DEFAULT-VALUE}).")
  int burstDrainPercent;

  @Option(
      names = "--overload-seconds",
      defaultValue = "60",
      description = "Duration of the overload (default: ${DEFAULT-VALUE}).")
  int overloadSeconds;

  @Option(
      names = "--overload-factor",
      defaultValue = "10",
      description = "The overload's rate ÷ the sustainable rate (default: ${DEFAULT-VALUE}).")
  int overloadFactor;

  @Option(
      names = "--delay-percent",
      defaultValue = "10",
      description =
          "Percentage of the reads the hedging phase's proxy delays (default: ${DEFAULT-VALUE}).")
  int delayPercent;

  @Option(
      names = "--delay-ms",
      defaultValue = "50..200",
      description = "Range of the proxy's delays, min..max ms (default: ${DEFAULT-VALUE}).")
  String delayMs;

  @Option(
      names = "--hedge-delay-ms",
      defaultValue = "20",
      description =
          "How long the hedging client waits before it hedges (default: ${DEFAULT-VALUE}).")
  int hedgeDelayMs;

  @Option(
      names = "--latency-seconds",
      defaultValue = "30",
      description =
          "Duration of each latency measurement: hedging, each collector (default:"
              + " ${DEFAULT-VALUE}).")
  int latencySeconds;

  @Option(
      names = "--sustainable-rate",
      defaultValue = "0",
      description =
          "Events per second the burst and the overload are multiples of (and the burst's drain"
              + " rate a share of); 0 takes the rate the buffered comparison measures in the same"
              + " run. Give the same rate to compare two runs at the same load: the measured one"
              + " moves with the machine (default: ${DEFAULT-VALUE}).")
  long sustainableRate;

  @Option(
      names = "--load-in-flight",
      defaultValue = "64",
      description =
          "Requests the burst's and the overload's sender keeps unanswered at most; when they are"
              + " all unanswered it waits, and offers less than asked. More is not more load: once"
              + " the machine is saturated, more requests in flight only wait longer, past their"
              + " deadline (default: ${DEFAULT-VALUE}).")
  int loadInFlight;

  @Option(
      names = "--cassandra",
      description = "Use this Cassandra (host:port) instead of starting the local one.")
  String cassandra;

  @Override
  public Integer call() throws Exception {
    if (quick) {
      warmupSeconds = unlessGiven("--warmup", warmupSeconds, 5);
      events = unlessGiven("--events", events, 20_000);
      rounds = unlessGiven("--rounds", rounds, 1);
      burstSeconds = unlessGiven("--burst-seconds", burstSeconds, 5);
      overloadSeconds = unlessGiven("--overload-seconds", overloadSeconds, 10);
      latencySeconds = unlessGiven("--latency-seconds", latencySeconds, 5);
    }
    OptionChecks.inRange(spec, "--warmup", warmupSeconds, 0, 3600);
    OptionChecks.inRange(spec, "--events", events, 1000, 10_000_000);
    OptionChecks.inRange(spec, "--rounds", rounds, 1, 100);
    OptionChecks.inRange(spec, "--batch", batch, 1, 1000);
    OptionChecks.inRange(spec, "--concurrency", concurrency, 1, 1024);
    OptionChecks.inRange(spec, "--burst-seconds", burstSeconds, 1, 600);
    OptionChecks.inRange(spec, "--burst-factor", burstFactor, 1, 100);
    OptionChecks.inRange(spec, "--burst-drain-percent", burstDrainPercent, 0, 1000);
    OptionChecks.inRange(spec, "--overload-seconds", overloadSeconds, 1, 3600);
    OptionChecks.inRange(spec, "--overload-factor", overloadFactor, 1, 100);
    OptionChecks.inRange(spec, "--delay-percent", delayPercent, 0, 100);
    OptionChecks.inRange(spec, "--hedge-delay-ms", hedgeDelayMs, 1, 10_000);
    OptionChecks.inRange(spec, "--latency-seconds", latencySeconds, 1, 3600);
    OptionChecks.inRange(spec, "--sustainable-rate", sustainableRate, 0, 10_000_000);
    OptionChecks.inRange(spec, "--load-in-flight", loadInFlight, 1, 4096);
    String[] range = delayMs.split("\\.\\.", -1);
    if (range.length != 2 || !range[0].matches("\\d{1,5}") || !range[1].matches("\\d{1,5}")) {
      OptionChecks.inRange(spec, "--delay-ms (min..max)", -1, 0, 10_000);
    }
    int delayMin = Integer.parseInt(range[0]);
    int delayMax = Integer.parseInt(range[1]);
    OptionChecks.inRange(spec, "--delay-ms min", delayMin, 0, 10_000);
    OptionChecks.inRange(spec, "--delay-ms max", delayMax, delayMin, 10_000);
    try (Environment environment = Environment.open("perf dataplane")) {
      new DataPlaneBenchmark(
              environment,
              new DataPlaneParameters(
                  Duration.ofSeconds(warmupSeconds),
                  events,
                  rounds,
                  batch,
                  concurrency,
                  Duration.ofSeconds(burstSeconds),
                  burstFactor,
                  burstDrainPercent / 100.0,
                  Duration.ofSeconds(overloadSeconds),
                  overloadFactor,
                  delayPercent / 100.0,
                  Duration.ofMillis(delayMin),
                  Duration.ofMillis(delayMax),
                  Duration.ofMillis(hedgeDelayMs),
                  Duration.ofSeconds(latencySeconds),
                  sustainableRate,
                  loadInFlight))
          .run(cassandra, new Figures(System.out));
    }
    return 0;
  }

  private int unlessGiven(String option, int value, int quickValue) {
    return spec.commandLine().getParseResult().hasMatchedOption(option) ? value : quickValue;
  }
}
