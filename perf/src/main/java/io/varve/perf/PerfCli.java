package io.varve.perf;

import io.varve.command.ExitStatusMapper;
import io.varve.perf.cluster.ClusterCommand;
import io.varve.perf.dataplane.DataPlaneCommand;
import io.varve.perf.kv.KvCommand;
import io.varve.perf.migrate.MigrateCommand;
import io.varve.perf.search.SearchCommand;
import io.varve.perf.sla.SlaCommand;
import io.varve.perf.ts.TimeSeriesCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code varve perf}: the benchmarks, each printing {@code key=value} figures. The {@code varve}
 * script runs this class with the arguments {@code perf <benchmark> ...}: on the CLI's classpath
 * for {@code ts}, {@code search}, {@code kv}, {@code dataplane} and {@code sla}, on the reshaper's
 * (Spark) for {@code migrate} and {@code spark}. The command classes hold options only, so that
 * each classpath can build the whole command line.
 *
 * <p>Exit statuses: those of every {@code varve} command ({@link io.varve.command.ExitStatus},
 * docs/exit-status.md): 2 a bad option, 4 a benchmark that failed.
 */
@Command(
    name = "varve",
    mixinStandardHelpOptions = true,
    version = "varve 0.1.0",
    subcommands = PerfCli.Perf.class)
public final class PerfCli {

  /** The {@code perf} command and its benchmarks. */
  @Command(
      name = "perf",
      mixinStandardHelpOptions = true,
      description = "Run a benchmark and print key=value figures.",
      subcommands = {
        TimeSeriesCommand.class,
        io.varve.perf.lifecycle.LifecycleCommand.class,
        SearchCommand.class,
        KvCommand.class,
        DataPlaneCommand.class,
        MigrateCommand.class,
        io.varve.perf.spark.SparkCommand.class,
        SlaCommand.class,
        io.varve.perf.sla.CapacityCommand.class,
        ClusterCommand.class
      })
  static final class Perf {}

  private PerfCli() {}

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line ({@code perf <benchmark> [options]}) and returns its exit status. */
  public static int run(String... args) {
    return ExitStatusMapper.install(new CommandLine(new PerfCli()), "varve").execute(args);
  }
}
