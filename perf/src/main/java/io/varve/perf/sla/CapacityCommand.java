package io.varve.perf.sla;

import io.varve.local.VarveHome;
import io.varve.perf.OptionChecks;
import io.varve.perf.environment.Environment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code varve perf capacity}: the options of {@link CapacityBenchmark}. */
@Command(
    name = "capacity",
    mixinStandardHelpOptions = true,
    description =
        "The capacity at which each binding meets the SLA on workload A on this machine (varve bench"
            + " capacity), its load at that rate, the loader's ceiling, kv.capacity.ratio, and the"
            + " cost lines of a pricing file.")
public final class CapacityCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataSetOptions data;

  @Option(
      names = "--seconds",
      defaultValue = "20",
      description = "measured seconds of each step of a search (default ${DEFAULT-VALUE})")
  int seconds;

  @Option(
      names = "--warmup",
      defaultValue = "10",
      description = "warm-up seconds of each step (default ${DEFAULT-VALUE})")
  int warmup;

  @Option(
      names = "--first-warmup",
      defaultValue = "60",
      description = "warm-up seconds of each search's first step (default ${DEFAULT-VALUE})")
  int firstWarmup;

  @Option(
      names = "--threads",
      defaultValue = "32",
      description = "client threads (default ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--start",
      defaultValue = "250",
      description = "the first target of each search, ops/s (default ${DEFAULT-VALUE})")
  int start;

  @Option(
      names = "--sla",
      defaultValue = "read.p99<10ms,update.p99<10ms",
      description = "the SLA (default \"${DEFAULT-VALUE}\")")
  String sla;

  @Option(
      names = "--bindings",
      defaultValue = "cql varve-kv varve dynamodb",
      description = "the bindings, separated by spaces (default \"${DEFAULT-VALUE}\")")
  String bindings;

  @Option(
      names = "--pricing",
      description = "the pricing file of the cost lines (default workloads/pricing-example.yaml)")
  Path pricing;

  @Option(
      names = "--out",
      description = "where everything goes (default bench-results/capacity-<UTC time>)")
  Path out;

  @Override
  public Integer call() throws Exception {
    data.check(spec);
    OptionChecks.inRange(spec, "--seconds", seconds, 1, 86_400);
    OptionChecks.inRange(spec, "--warmup", warmup, 0, 86_400);
    OptionChecks.inRange(spec, "--first-warmup", firstWarmup, 0, 86_400);
    OptionChecks.inRange(spec, "--threads", threads, 1, 10_000);
    OptionChecks.inRange(spec, "--start", start, 1, Integer.MAX_VALUE);
    Path home = VarveHome.locate();
    Path prices = pricing != null ? pricing : home.resolve("workloads/pricing-example.yaml");
    if (!Files.isRegularFile(prices)) {
      throw new ParameterException(
          spec.commandLine(), "--pricing: " + prices + " (expected: a pricing file)");
    }
    Path directory =
        out != null
            ? out
            : home.resolve("bench-results")
                .resolve(
                    "capacity-"
                        + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                            .withZone(ZoneOffset.UTC)
                            .format(Instant.now()));
    CapacityBenchmark.Plan plan =
        new CapacityBenchmark.Plan(
            data.records,
            data.dynamoDbRecords,
            seconds,
            warmup,
            firstWarmup,
            threads,
            start,
            sla,
            Arrays.stream(bindings.trim().split("\\s+")).filter(b -> !b.isEmpty()).toList(),
            prices,
            directory);
    try (Environment environment = Environment.open("perf capacity")) {
      new CapacityBenchmark(environment, plan).run(System.out);
    }
    return 0;
  }
}
