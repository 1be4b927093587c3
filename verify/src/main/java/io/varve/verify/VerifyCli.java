package io.varve.verify;

import io.varve.verify.reliability.ReliabilityCommand;
import io.varve.verify.fuzz.FuzzCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code varve verify}: suites that check, on real local servers, what users rely on beyond single
 * requests. Each prints {@code key=value} results and exits non-zero on any failure.
 */
@Command(name = "verify", mixinStandardHelpOptions = true, version = "varve 0.1.0",
    description = "Reliability suites against real local servers; key=value results, non-zero exit on failure.",
    subcommands = {ReliabilityCommand.class, FuzzCommand.class, CommandLine.HelpCommand.class})
public final class VerifyCli {

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code (tests call this in-process). */
  public static int run(String... args) {
    CommandLine cli = new CommandLine(new VerifyCli());
    cli.setExecutionExceptionHandler((e, commandLine, parseResult) -> {
      commandLine.getErr().println("varve verify: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
      return 1;
    });
    return cli.execute(args);
  }
}
