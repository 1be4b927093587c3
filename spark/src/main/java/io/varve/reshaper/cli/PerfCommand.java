package io.varve.reshaper.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code perf}: the benchmarks of the reshaper. */
@Command(name = "perf", mixinStandardHelpOptions = true, description = "Benchmarks.",
    subcommands = PerfMigrateCommand.class)
final class PerfCommand implements Runnable {
  @Override
  public void run() {
    new CommandLine(this).usage(System.err);
  }
}
