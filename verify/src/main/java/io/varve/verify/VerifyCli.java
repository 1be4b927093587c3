package io.varve.verify;

import io.varve.command.ExitStatusMapper;
import io.varve.verify.fuzz.FuzzCommand;
import io.varve.verify.reliability.ReliabilityCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/**
 * {@code varve verify}: suites that check, on real local servers, what users rely on beyond single
 * requests. Each prints {@code key=value} results and exits with {@code COMPLETED_WITH_ERRORS} when
 * a check fails, {@code ABORTED_FATAL_ERROR} when the servers cannot be started or reached ({@link
 * io.varve.command.ExitStatus}, docs/exit-status.md).
 */
@Command(
    name = "verify",
    mixinStandardHelpOptions = true,
    version = "varve 0.1.0",
    description =
        "Reliability suites against real local servers; key=value results, non-zero exit on failure.",
    subcommands = {ReliabilityCommand.class, FuzzCommand.class, CommandLine.HelpCommand.class})
public final class VerifyCli {

  public static void main(String[] args) {
    System.exit(run(args));
  }

  /** Runs the command line and returns its exit code (tests call this in-process). */
  public static int run(String... args) {
    return ExitStatusMapper.install(new CommandLine(new VerifyCli()), "varve verify").execute(args);
  }
}
