package io.varve.bench.sla;

import io.varve.bench.result.LatencyKind;
import io.varve.bench.result.RunResult;
import java.util.ArrayList;
import java.util.List;

/**
 * A service level agreement: comma-separated clauses that must all hold, e.g. {@code
 * throughput>=120000,read.p99<10ms,update.p99<10ms}.
 */
public record Sla(List<SlaClause> clauses) {

  /** Parses an SLA; an empty one is an error. */
  public static Sla parse(String text) {
    List<SlaClause> clauses = new ArrayList<>();
    for (String part : text.split(",")) {
      if (!part.isBlank()) {
        clauses.add(SlaClause.parse(part));
      }
    }
    if (clauses.isEmpty()) {
      throw new SlaException(
          "SLA '" + text + "' has no clause: expected e.g. throughput>=1000,read.p99<10ms");
    }
    return new Sla(List.copyOf(clauses));
  }

  /** Checks every clause; latencies are read from the given kind of histogram. */
  public SlaVerdict check(RunResult result, LatencyKind latency) {
    return new SlaVerdict(clauses.stream().map(c -> c.check(result, latency)).toList(), latency);
  }
}
