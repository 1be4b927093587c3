package io.varve.local;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Runs a launcher's command line in the test's JVM and keeps what it printed. */
public final class LauncherOutput {

  /** A launcher's {@code run(args, out, err)}, which returns the exit status. */
  @FunctionalInterface
  public interface CommandLine {
    int run(String[] args, PrintStream out, PrintStream err);
  }

  private final CommandLine commandLine;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();

  public LauncherOutput(CommandLine commandLine) {
    this.commandLine = commandLine;
  }

  /**
   * Runs the command line; returns its exit status. What it prints adds to what earlier runs
   * printed.
   */
  public int run(String... args) {
    return commandLine.run(
        args,
        new PrintStream(out, true, StandardCharsets.UTF_8),
        new PrintStream(err, true, StandardCharsets.UTF_8));
  }

  /** All that the runs printed to standard output. */
  public String out() {
    return out.toString(StandardCharsets.UTF_8);
  }

  /** All that the runs printed to standard error. */
  public String err() {
    return err.toString(StandardCharsets.UTF_8);
  }

  /** Forgets what was printed. */
  public void reset() {
    out.reset();
    err.reset();
  }
}
