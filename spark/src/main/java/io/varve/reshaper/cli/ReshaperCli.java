package io.varve.reshaper.cli;

import io.varve.reshaper.job.ExitStatus;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * The reshaper's entry point: {@code varve migrate ...} runs it with its arguments, and
 * {@code spark-submit} runs it as the main class. Exit codes are those of {@link ExitStatus}.
 */
@Command(name = "varve", mixinStandardHelpOptions = true,
    description = "Copies, renames and reshapes Cassandra/ScyllaDB tables with Spark.",
    subcommands = MigrateCommand.class)
public final class ReshaperCli implements Runnable {

  /** Runs the command line and exits with its status. */
  public static void main(String[] args) {
    int status = execute(args);
    System.out.flush();
    System.err.flush();
    System.exit(status);
  }

  /** Runs the command line in this JVM and returns the exit status. */
  public static int execute(String... args) {
    CommandLine cli = new CommandLine(new ReshaperCli());
    cli.setExitCodeExceptionMapper(e -> e instanceof CommandLine.ParameterException
        ? ExitStatus.INVALID_INPUT.code() : ExitStatus.FATAL.code());
    return cli.execute(args);
  }

  @Override
  public void run() {
    new CommandLine(this).usage(System.err);
  }
}
