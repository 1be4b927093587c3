package io.varve.perf.lifecycle;

import io.varve.perf.OptionChecks;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varve perf lifecycle}: the options of {@link LifecycleBenchmark}. */
@Command(
    name = "lifecycle",
    mixinStandardHelpOptions = true,
    description =
        "Benchmark the TimeSeries data lifecycle on the local Cassandra: reads of an immutable range"
            + " with the cache of immutable ranges against the same reads without it.")
public final class LifecycleCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--reads",
      defaultValue = "3000",
      description = "Measured reads per side (default: ${DEFAULT-VALUE}).")
  int reads;

  @Option(
      names = "--events",
      defaultValue = "100",
      description = "Events in the range read (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(
      names = "--warmup",
      defaultValue = "60",
      description =
          "Seconds of reads, both sides interleaved, before the measured ones (default: ${DEFAULT-VALUE}).")
  int warmupSeconds;

  @Option(
      names = "--dense-events",
      defaultValue = "4000",
      description =
          "Events of each dense series of the re-partitioned slice (default: ${DEFAULT-VALUE}).")
  int denseEvents;

  @Option(
      names = "--cassandra",
      description = "Use this Cassandra (host:port) instead of starting the local one.")
  String cassandra;

  @Override
  public Integer call() throws Exception {
    OptionChecks.inRange(spec, "--reads", reads, 10, 10_000_000);
    OptionChecks.inRange(spec, "--events", events, 1, 1000);
    OptionChecks.inRange(spec, "--warmup", warmupSeconds, 0, 3600);
    OptionChecks.inRange(spec, "--dense-events", denseEvents, 2000, 1_000_000);
    try (Environment environment = Environment.open("perf lifecycle")) {
      new LifecycleBenchmark(environment, reads, events, warmupSeconds, denseEvents)
          .run(cassandra, new Figures(System.out));
    }
    return 0;
  }
}
