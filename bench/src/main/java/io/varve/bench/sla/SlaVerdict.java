package io.varve.bench.sla;

import io.varve.bench.result.LatencyKind;
import java.io.PrintStream;
import java.util.List;
import java.util.Locale;

/**
 * The verdict of an SLA: one per clause, and overall (met only when every clause is).
 *
 * @param clauses a verdict per clause, in the order written
 * @param latency which latency the clauses were checked against
 */
public record SlaVerdict(List<ClauseVerdict> clauses, LatencyKind latency) {

  /**
   * The verdict of one clause.
   *
   * @param clause the clause
   * @param met whether it holds
   * @param actual the measured value (NaN when there was nothing to measure)
   * @param shown the measured value with its unit
   */
  public record ClauseVerdict(SlaClause clause, boolean met, double actual, String shown) {}

  /** Whether every clause holds. */
  public boolean met() {
    return clauses.stream().allMatch(ClauseVerdict::met);
  }

  /** Prints the verdict in YCSB's line format: {@code [SLA], <clause>, PASS|FAIL, <actual>}. */
  public void print(PrintStream out) {
    for (ClauseVerdict c : clauses) {
      out.printf(
          Locale.ROOT,
          "[SLA], %s, %s, %s%n",
          c.clause().text(),
          c.met() ? "PASS" : "FAIL",
          c.shown());
    }
    out.printf(
        Locale.ROOT,
        "[SLA], OVERALL, %s, latency from %s start%n",
        met() ? "PASS" : "FAIL",
        latency == LatencyKind.INTENDED ? "intended" : "actual");
  }
}
