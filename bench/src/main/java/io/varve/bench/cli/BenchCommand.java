package io.varve.bench.cli;

import picocli.CommandLine.Command;

/**
 * {@code varve bench}: YCSB workloads against a binding, with corrected percentiles, an SLA
 * verdict, result files that merge, and an HTML report.
 *
 * <p>Exit codes: 0 success (and the SLA met when one was given), 1 the run failed, 2 usage
 * error, 3 the SLA was missed.
 */
@Command(name = "bench", mixinStandardHelpOptions = true,
    description = "YCSB workloads with corrected percentiles, SLA verdicts and reports.",
    subcommands = {PhaseCommand.Load.class, PhaseCommand.Run.class, MergeCommand.class, ReportCommand.class,
        CheckCommand.class},
    exitCodeListHeading = "%nExit codes:%n",
    exitCodeList = {"0:success (SLA met, if one was given)", "1:the run failed", "2:usage error", "3:SLA missed"})
public final class BenchCommand {
  /** Exit code when the SLA is missed. */
  public static final int SLA_MISSED = 3;
}
