package io.varve.perf.kv;

import io.varve.perf.OptionChecks;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code varve perf kv}: the options of {@link KvBenchmark}. */
@Command(
    name = "kv",
    mixinStandardHelpOptions = true,
    description =
        "Benchmark the KeyValue service (PutItems, GetItems, byte pages, read amplification)"
            + " against raw CQL on the local Cassandra.")
public final class KvCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--duration",
      defaultValue = "20",
      description = "Seconds each side of each comparison is measured (default: ${DEFAULT-VALUE}).")
  int durationSeconds;

  @Option(
      names = "--warmup",
      defaultValue = "120",
      description =
          "Seconds both sides run, not measured, before each comparison; on a small machine the"
              + " JIT compilers of the server and of the client need minutes (default:"
              + " ${DEFAULT-VALUE}).")
  int warmupSeconds;

  @Option(
      names = "--concurrency",
      defaultValue = "16",
      description = "Write requests in flight, per side (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(
      names = "--batch",
      defaultValue = "10",
      description = "Items per PutItems request and raw batch (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(
      names = "--item-bytes",
      defaultValue = "1024",
      description =
          "Bytes of each written item, key plus value: 64 to 1 MiB, and a request at most 4 MiB"
              + " (default: ${DEFAULT-VALUE}).")
  int itemBytes;

  @Option(
      names = "--records",
      defaultValue = "1000",
      description = "Records the writes spread over (default: ${DEFAULT-VALUE}).")
  int records;

  @Option(
      names = "--mixed-items",
      defaultValue = "1000",
      description =
          "Items of the record of mixed sizes read for the read amplification"
              + " (default: ${DEFAULT-VALUE}).")
  int mixedItems;

  @Option(
      names = "--fixed-fetch-rows",
      defaultValue = "100",
      description =
          "Row limit of the fixed-limit paging loop the adaptive fetch sizes are compared with"
              + " (default: ${DEFAULT-VALUE}).")
  int fixedFetchRows;

  @Option(
      names = "--phases",
      split = ",",
      paramLabel = "PHASE",
      description =
          "Phases to run: put, get, page, chunked, amplification (default: all, in that order);"
              + " the goals of the others get no verdict.")
  List<String> phases = KvParameters.PHASES;

  @Option(
      names = "--cassandra",
      description = "Use this Cassandra (host:port) instead of starting the local one.")
  String cassandra;

  @Override
  public Integer call() throws Exception {
    OptionChecks.inRange(spec, "--duration", durationSeconds, 1, 3600);
    OptionChecks.inRange(spec, "--warmup", warmupSeconds, 0, 3600);
    OptionChecks.inRange(spec, "--concurrency", concurrency, 1, 1024);
    OptionChecks.inRange(spec, "--batch", batch, 1, 1000);
    // an item's value at most 1 MiB, a request's keys plus values at most PutItems' 4 MiB
    OptionChecks.inRange(
        spec, "--item-bytes", itemBytes, 64, Math.min(1 << 20, (4L << 20) / batch));
    OptionChecks.inRange(spec, "--records", records, 1, 10_000_000);
    OptionChecks.inRange(spec, "--mixed-items", mixedItems, 10, 100_000);
    OptionChecks.inRange(spec, "--fixed-fetch-rows", fixedFetchRows, 1, 5000);
    for (String phase : phases) {
      if (!KvParameters.PHASES.contains(phase)) {
        throw new ParameterException(
            spec.commandLine(),
            "--phases: " + phase + " (expected: " + String.join(", ", KvParameters.PHASES) + ")");
      }
    }
    try (Environment environment = Environment.open("perf kv")) {
      new KvBenchmark(
              environment,
              new KvParameters(
                  Duration.ofSeconds(durationSeconds),
                  Duration.ofSeconds(warmupSeconds),
                  concurrency,
                  batch,
                  itemBytes,
                  records,
                  mixedItems,
                  fixedFetchRows,
                  Set.copyOf(phases)))
          .run(cassandra, new Figures(System.out));
    }
    return 0;
  }
}
