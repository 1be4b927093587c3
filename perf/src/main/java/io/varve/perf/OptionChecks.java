package io.varve.perf;

import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/**
 * The range checks of the benchmarks' numeric options: a value out of range is a usage error (exit
 * status 2).
 */
public final class OptionChecks {

  private OptionChecks() {}

  /** Fails with {@code <option>: <value> (expected: <min>..<max>)} unless min <= value <= max. */
  public static void inRange(CommandSpec spec, String option, long value, long min, long max) {
    if (value < min || value > max) {
      throw new ParameterException(
          spec.commandLine(), option + ": " + value + " (expected: " + min + ".." + max + ")");
    }
  }
}
