package io.varve.bench.cli;

import io.varve.bench.result.LatencyKind;
import io.varve.bench.result.RunResult;
import io.varve.bench.sla.Sla;
import io.varve.bench.sla.SlaVerdict;
import io.varve.command.ExitStatus;
import java.io.PrintStream;
import picocli.CommandLine.Option;

/** The {@code --sla} options shared by the commands that judge a result. */
final class SlaOptions {
  @picocli.CommandLine.Spec(picocli.CommandLine.Spec.Target.MIXEE)
  picocli.CommandLine.Model.CommandSpec mixee;

  @Option(
      names = "--sla",
      paramLabel = "CLAUSES",
      description = "SLA to check, e.g. \"throughput>=1000,read.p99<10ms,update.p99<10ms\".")
  String sla;

  @Option(
      names = "--sla-latency",
      paramLabel = "KIND",
      defaultValue = "INTENDED",
      description =
          "Latency the SLA is checked against: INTENDED (from the intended start, corrected for "
              + "coordinated omission; the default) or SERVICE (raw service time).")
  LatencyKind latency;

  /** Parses the SLA up front so a typo fails before the run. */
  Sla parsed() {
    try {
      return sla == null ? null : Sla.parse(sla);
    } catch (io.varve.bench.sla.SlaException e) {
      throw new picocli.CommandLine.ParameterException(
          mixee.commandLine(), "--sla: " + e.getMessage());
    }
  }

  /**
   * Prints the verdict and returns the exit code: {@code OK} met (or no SLA), {@code
   * COMPLETED_WITH_ERRORS} missed.
   */
  int judge(Sla parsed, RunResult result, PrintStream out) {
    if (parsed == null) {
      return ExitStatus.OK.code();
    }
    SlaVerdict verdict = parsed.check(result, latency);
    verdict.print(out);
    return (verdict.met() ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }
}
