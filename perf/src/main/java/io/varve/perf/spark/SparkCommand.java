package io.varve.perf.spark;

import io.varve.command.ExitStatus;
import io.varve.perf.environment.Environment;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code varve perf spark}: the options of {@link SparkBenchmark}. Runs on the reshaper's classpath
 * (Spark), as {@code perf migrate} does; 2 for a usage error, {@link
 * ExitStatus#ABORTED_FATAL_ERROR} when the run fails.
 */
@Command(
    name = "spark",
    mixinStandardHelpOptions = true,
    description =
        "Loads a TimeSeries namespace through varve-timeseries and times, side by side, its"
            + " DataFrame read against the connector's read of the same slice tables, varve export"
            + " against the reshaper's plain copy of them, and varve import against raw packed CQL"
            + " ingest; prints key=value lines.")
public final class SparkCommand implements Callable<Integer> {

  @Option(
      names = "--events",
      defaultValue = "1000000",
      description = "events in the namespace, one item each (default 1000000)")
  int events;

  @Option(
      names = "--value-bytes",
      defaultValue = "100",
      description = "bytes of each item's value (default 100)")
  int valueBytes;

  @Override
  public Integer call() {
    if (events < 1000 || events > 100_000_000) {
      System.err.println("--events: " + events + " (expected: 1000..100000000)");
      return ExitStatus.INVALID_INPUT.code();
    }
    if (valueBytes < 1 || valueBytes > 1_000_000) {
      System.err.println("--value-bytes: " + valueBytes + " (expected: 1..1000000)");
      return ExitStatus.INVALID_INPUT.code();
    }
    try (Environment environment = Environment.open("perf spark")) {
      new SparkBenchmark(environment, events, valueBytes, System.out).run();
      return ExitStatus.OK.code();
    } catch (Exception e) {
      e.printStackTrace();
      return ExitStatus.ABORTED_FATAL_ERROR.code();
    }
  }
}
