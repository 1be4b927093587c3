package io.varve.perf.ts;

import io.varve.perf.OptionChecks;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varve perf ts}: the options of {@link TimeSeriesBenchmark}. */
@Command(
    name = "ts",
    mixinStandardHelpOptions = true,
    description = "Benchmark TimeSeries writes and reads against raw CQL on the local Cassandra.")
public final class TimeSeriesCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--events",
      defaultValue = "200000",
      description = "Events written per side (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(
      names = "--batch",
      defaultValue = "100",
      description = "Events per write request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(
      names = "--concurrency",
      defaultValue = "16",
      description = "Write requests in flight (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(
      names = "--reads",
      defaultValue = "3000",
      description = "Measured reads per side (default: ${DEFAULT-VALUE}).")
  int reads;

  @Option(
      names = "--warmup",
      defaultValue = "180",
      description =
          "Seconds of writes (both sides, alternating) before"
              + " the measured write phases; half as long again warms up the reads (default: ${DEFAULT-VALUE}).")
  int warmupSeconds;

  @Option(
      names = "--cassandra",
      description = "Use this Cassandra (host:port) instead of starting the local one.")
  String cassandra;

  @Override
  public Integer call() throws Exception {
    OptionChecks.inRange(spec, "--batch", batch, 1, 1000);
    OptionChecks.inRange(spec, "--events", events, 2L * batch, 100_000_000);
    OptionChecks.inRange(spec, "--concurrency", concurrency, 1, 1024);
    OptionChecks.inRange(spec, "--reads", reads, 10, 10_000_000);
    OptionChecks.inRange(spec, "--warmup", warmupSeconds, 0, 3600);
    try (Environment environment = Environment.open("perf ts")) {
      new TimeSeriesBenchmark(
              environment,
              new WritePhase(events, batch, concurrency, warmupSeconds),
              new ReadPhase(reads, warmupSeconds))
          .run(cassandra, new Figures(System.out));
    }
    return 0;
  }
}
