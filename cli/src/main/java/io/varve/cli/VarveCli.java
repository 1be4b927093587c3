package io.varve.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code varve} command. Exit codes: 0 success, 1 failure, 2 usage error. */
@Command(name = "varve", mixinStandardHelpOptions = true, version = "varve 0.1.0",
    description = "Temporal data platform for Apache Cassandra and ScyllaDB.",
    subcommands = {UpCommand.class, DownCommand.class, StatusCommand.class, ServeCommand.class, IndexCommand.class,
        io.varve.bench.cli.BenchCommand.class,
        CommandLine.HelpCommand.class})
public final class VarveCli {

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code (tests call this in-process). */
  public static int run(String... args) {
    CommandLine cli = new CommandLine(new VarveCli());
    // YCSB's single-dash options (-threads, -target) must not be read as clustered short options.
    cli.setPosixClusteredShortOptionsAllowed(false);
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      commandLine.getErr().println("varve: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return 1;
    });
    return cli.execute(args);
  }
}
