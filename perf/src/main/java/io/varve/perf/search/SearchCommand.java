package io.varve.perf.search;

import io.varve.local.VarveHome;
import io.varve.perf.OptionChecks;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code varve perf search}: the options of {@link SearchBenchmark}; the figures also go to a file.
 */
@Command(
    name = "search",
    mixinStandardHelpOptions = true,
    description =
        "Benchmark indexing, SearchEventRecords and AggregateEventRecords on the local Cassandra and"
            + " OpenSearch.")
public final class SearchCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--events",
      defaultValue = "200000",
      description = "Events written over the last 24 h (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(
      names = "--writers",
      defaultValue = "8",
      description = "Concurrent writers, one request in flight each (default: ${DEFAULT-VALUE}).")
  int writers;

  @Option(
      names = "--batch",
      defaultValue = "100",
      description = "Events per write request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(
      names = "--requests",
      defaultValue = "500",
      description = "Measured requests per search and aggregate query (default: ${DEFAULT-VALUE}).")
  int requests;

  @Option(
      names = "--warmup",
      defaultValue = "50",
      description =
          "Warm-up requests per query, not measured; their answers are checked in full (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(
      names = "--clients",
      defaultValue = "4",
      description = "Concurrent search clients (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(
      names = "--probes",
      defaultValue = "200",
      description = "Index-lag probes (default: ${DEFAULT-VALUE}).")
  int probes;

  @Option(
      names = "--probe-interval-ms",
      defaultValue = "100",
      description = "Time between two probe writes (default: ${DEFAULT-VALUE}).")
  int probeIntervalMs;

  @Option(
      names = "--background-events-per-s",
      defaultValue = "100",
      description =
          "Background write load of the index-lag phase, events/s; 0 for none (default: ${DEFAULT-VALUE}).")
  int backgroundRate;

  @Option(
      names = "--document-mode",
      defaultValue = "REVERSE_INDEX",
      description = "REVERSE_INDEX or FULL_EVENT (default: ${DEFAULT-VALUE}).")
  String documentMode;

  @Option(
      names = "--queue-capacity",
      description =
          "The server's opensearch.queueCapacity (default: the larger of 100000 and --events, so that no event is dropped).")
  Integer queueCapacity;

  @Option(
      names = "--cassandra",
      description = "Use this Cassandra (host:port) instead of starting the local one.")
  String cassandra;

  @Option(
      names = "--opensearch",
      description = "Use this OpenSearch (http://host:port) instead of starting the local one.")
  String opensearch;

  @Option(
      names = "--out",
      description =
          "File the figures are also written to (default: bench-results/search-<UTC time>.txt).")
  Path out;

  @Override
  public Integer call() throws Exception {
    SearchParameters parameters = parameters();
    Path file =
        out != null
            ? out
            : VarveHome.locate()
                .resolve("bench-results")
                .resolve(
                    "search-"
                        + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                            .withZone(ZoneOffset.UTC)
                            .format(Instant.now())
                        + ".txt");
    try (Figures figures = Figures.toStandardOutputAnd(file);
        Environment environment = Environment.open("perf search")) {
      new SearchBenchmark(environment, parameters).run(figures, cassandra, opensearch);
    } finally {
      System.err.println("perf search: figures written to " + file);
    }
    return 0;
  }

  private SearchParameters parameters() {
    OptionChecks.inRange(spec, "--batch", batch, 1, 1000);
    OptionChecks.inRange(spec, "--events", events, batch, 100_000_000);
    OptionChecks.inRange(spec, "--writers", writers, 1, 1024);
    OptionChecks.inRange(spec, "--requests", requests, 1, 10_000_000);
    OptionChecks.inRange(spec, "--warmup", warmup, 0, 10_000_000);
    OptionChecks.inRange(spec, "--clients", clients, 1, 256);
    OptionChecks.inRange(spec, "--probes", probes, 1, 1_000_000);
    OptionChecks.inRange(spec, "--probe-interval-ms", probeIntervalMs, 1, 60_000);
    OptionChecks.inRange(spec, "--background-events-per-s", backgroundRate, 0, 1_000_000);
    String mode = documentMode.toUpperCase(Locale.ROOT);
    if (!mode.equals("REVERSE_INDEX") && !mode.equals("FULL_EVENT")) {
      throw new ParameterException(
          spec.commandLine(),
          "--document-mode: " + mode + " (expected: REVERSE_INDEX or FULL_EVENT)");
    }
    int capacity = queueCapacity != null ? queueCapacity : Math.max(100_000, events);
    OptionChecks.inRange(spec, "--queue-capacity", capacity, 1, 10_000_000);
    return new SearchParameters(
        events,
        writers,
        batch,
        requests,
        warmup,
        clients,
        probes,
        probeIntervalMs,
        backgroundRate,
        mode,
        capacity);
  }
}
