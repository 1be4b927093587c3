package io.varve.bench.cli;

import picocli.CommandLine.Command;

/**
 * {@code varve bench}: YCSB workloads against a binding, with corrected percentiles, an SLA
 * verdict, result files that merge, and an HTML report.
 *
 * <p>Exit statuses (docs/exit-status.md): {@code OK} success, and the SLA met when one was given;
 * {@code COMPLETED_WITH_ERRORS} the SLA was missed; {@code INVALID_INPUT} a bad option, property,
 * workload, SLA or result file ({@code BenchInputException}, {@code ResultFileException}); {@code
 * ABORTED_FATAL_ERROR} the run failed, for example a binding could not start.
 */
@Command(
    name = "bench",
    mixinStandardHelpOptions = true,
    description = "YCSB workloads with corrected percentiles, SLA verdicts and reports.",
    subcommands = {
      PhaseCommand.Load.class,
      PhaseCommand.Run.class,
      CapacityCommand.class,
      CostCommand.class,
      MergeCommand.class,
      ReportCommand.class,
      CheckCommand.class
    })
public final class BenchCommand {}
