package io.varve.cli;

import io.varve.bench.engine.BenchInputException;
import io.varve.bench.result.ResultFileException;
import io.varve.command.ExitStatusMapper;
import io.varve.core.error.InvalidFieldException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The {@code varve} command. Exit statuses: {@link io.varve.command.ExitStatus}
 * (docs/exit-status.md).
 */
@Command(
    name = "varve",
    mixinStandardHelpOptions = true,
    version = "varve 0.1.0",
    description = "Temporal data platform for Apache Cassandra and ScyllaDB.",
    subcommands = {
      UpCommand.class,
      DownCommand.class,
      StatusCommand.class,
      ServeCommand.class,
      IndexCommand.class,
      TimeSeriesCommand.class,
      io.varve.bench.cli.BenchCommand.class,
      CommandLine.HelpCommand.class
    })
public final class VarveCli {

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code (tests call this in-process). */
  public static int run(String... args) {
    CommandLine cli = new CommandLine(new VarveCli());
    // YCSB's single-dash options (-threads, -target) must not be read as clustered short options.
    cli.setPosixClusteredShortOptionsAllowed(false);
    // Invalid input found after parsing: a setting or an option naming its key (server
    // configuration, backfill),
    // a benchmark's properties or workload, a result file that is not one.
    return ExitStatusMapper.install(
            cli,
            "varve",
            InvalidFieldException.class,
            BenchInputException.class,
            ResultFileException.class)
        .execute(args);
  }
}
