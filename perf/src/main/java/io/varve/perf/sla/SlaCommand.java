package io.varve.perf.sla;

import io.varve.local.VarveHome;
import io.varve.perf.OptionChecks;
import io.varve.perf.environment.Environment;
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
import picocli.CommandLine.Spec;

/** {@code varve perf sla}: the options of {@link SlaBenchmark}. */
@Command(
    name = "sla",
    mixinStandardHelpOptions = true,
    description =
        "The SLA benchmark's figures on this machine: the loader's ceiling, then every binding's"
            + " population and three workload-A scenarios at one target rate with one SLA; a report per scenario.")
public final class SlaCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin DataSetOptions data;

  @Option(
      names = "--seconds",
      defaultValue = "30",
      description = "measured length of each scenario run (default ${DEFAULT-VALUE})")
  int seconds;

  @Option(
      names = "--warmup",
      defaultValue = "30",
      description = "warm-up before each scenario run, not measured (default ${DEFAULT-VALUE})")
  int warmup;

  @Option(
      names = "--target",
      defaultValue = "1500",
      description =
          "target rate of each scenario run, the SLA's throughput (default ${DEFAULT-VALUE})")
  int target;

  @Option(
      names = "--threads",
      defaultValue = "16",
      description = "client threads (default ${DEFAULT-VALUE})")
  int threads;

  @Option(
      names = "--bindings",
      defaultValue = "cql varve varve-kv dynamodb",
      description = "the bindings, separated by spaces (default \"${DEFAULT-VALUE}\")")
  String bindings;

  @Option(
      names = "--out",
      description =
          "directory of the results, the runs' output and the reports"
              + " (default bench-results/sla-<UTC time>)")
  Path out;

  @Override
  public Integer call() throws Exception {
    data.check(spec);
    OptionChecks.inRange(spec, "--seconds", seconds, 1, 86_400);
    OptionChecks.inRange(spec, "--warmup", warmup, 0, 86_400);
    OptionChecks.inRange(spec, "--target", target, 1, Integer.MAX_VALUE);
    OptionChecks.inRange(spec, "--threads", threads, 1, Integer.MAX_VALUE);
    Path directory =
        out != null
            ? out
            : VarveHome.locate()
                .resolve("bench-results")
                .resolve(
                    "sla-"
                        + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
                            .withZone(ZoneOffset.UTC)
                            .format(Instant.now()));
    SlaPlan plan =
        new SlaPlan(
            data.records,
            data.dynamoDbRecords,
            seconds,
            warmup,
            target,
            threads,
            Arrays.stream(bindings.trim().split("\\s+")).filter(b -> !b.isEmpty()).toList(),
            directory);
    try (Environment environment = Environment.open("perf sla")) {
      new SlaBenchmark(environment, plan).run(System.out);
    }
    return 0;
  }
}
