package io.varve.reshaper.cli;

import io.varve.command.ExitStatusMapper;
import io.varve.reshaper.config.ConfigException;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The reshaper's entry point: {@code varve migrate ...} runs it with its arguments, and {@code
 * spark-submit} runs it as the main class. Exit statuses are those of {@link
 * io.varve.command.ExitStatus} (docs/exit-status.md); a job's {@link io.varve.reshaper.job.Outcome}
 * names its own.
 */
@Command(
    name = "varve",
    mixinStandardHelpOptions = true,
    description =
        "Copies, renames and reshapes Cassandra/ScyllaDB tables with Spark; exports and imports"
            + " namespaces.",
    subcommands = {MigrateCommand.class, ExportCommand.class, ImportCommand.class})
public final class ReshaperCli {

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    int status = execute(args);
    System.out.flush();
    System.err.flush();
    System.exit(status);
  }

  /** Runs the command line in this JVM and returns the exit status. */
  public static int execute(String... args) {
    return ExitStatusMapper.install(
            new CommandLine(new ReshaperCli()), "varve", ConfigException.class)
        .execute(args);
  }
}
