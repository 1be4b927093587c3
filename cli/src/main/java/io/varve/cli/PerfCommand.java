package io.varve.cli;

import picocli.CommandLine.Command;

/** Benchmarks; each prints key=value lines. */
@Command(name = "perf", mixinStandardHelpOptions = true, description = "Run a benchmark and print key=value figures.",
    subcommands = {io.varve.cli.perf.TimeSeriesPerf.class, io.varve.cli.perf.SearchPerf.class})
final class PerfCommand {
}
