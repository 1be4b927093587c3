package io.varve.perf.cluster;

import io.varve.command.ExitStatus;
import io.varve.local.VarveHome;
import io.varve.perf.OptionChecks;
import io.varve.perf.environment.RunLock;
import io.varve.perf.measure.Figures;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code varve perf cluster}: the options of {@link ClusterBenchmark}. */
@Command(
    name = "cluster",
    mixinStandardHelpOptions = true,
    description =
        "Write rate of the TimeSeries API on one local Cassandra node, on three nodes with"
            + " replication factor 3, and on one node with TLS and passwords everywhere.")
public final class ClusterCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Option(
      names = "--duration",
      defaultValue = "30",
      description = "Seconds each setup's writes are measured (default: ${DEFAULT-VALUE}).")
  int durationSeconds;

  @Option(
      names = "--warmup",
      defaultValue = "30",
      description = "Seconds each setup writes before it is measured (default: ${DEFAULT-VALUE}).")
  int warmupSeconds;

  @Option(
      names = "--concurrency",
      defaultValue = "8",
      description = "Write requests in flight (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(
      names = "--batch",
      defaultValue = "10",
      description = "Events per WriteEventRecordsSync request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Override
  public Integer call() throws Exception {
    OptionChecks.inRange(spec, "--duration", durationSeconds, 1, 3600);
    OptionChecks.inRange(spec, "--warmup", warmupSeconds, 0, 3600);
    OptionChecks.inRange(spec, "--concurrency", concurrency, 1, 256);
    OptionChecks.inRange(spec, "--batch", batch, 1, 1000);
    Path home = VarveHome.locate();
    try (RunLock lock = RunLock.take(home, "perf cluster");
        Figures figures = new Figures(System.out)) {
      new ClusterBenchmark(home, durationSeconds, warmupSeconds, concurrency, batch, figures).run();
    }
    return ExitStatus.OK.code();
  }
}
