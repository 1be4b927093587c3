package io.varve.bench;

import io.varve.bench.result.HistogramCodec;
import io.varve.bench.result.OperationResult;
import io.varve.bench.result.RunResult;
import io.varve.bench.result.SecondResult;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.LongUnaryOperator;
import org.HdrHistogram.Histogram;

/** Builds result files from known latencies for tests. */
public final class Results {
  private Results() {}

  /** A histogram holding {@code count} values, the i-th being {@code latencyUs.applyAsLong(i)}. */
  public static Histogram histogram(int count, LongUnaryOperator latencyUs) {
    Histogram h = new Histogram(3);
    for (int i = 0; i < count; i++) {
      h.recordValue(latencyUs.applyAsLong(i));
    }
    return h;
  }

  /** A one-operation result whose timeline has one second per histogram given. */
  public static RunResult result(
      String label,
      long startedAtMs,
      long durationMs,
      String op,
      Histogram intended,
      Histogram service,
      Map<String, Long> errors,
      List<Histogram> seconds) {
    Map<String, OperationResult> ops =
        new TreeMap<>(Map.of(op, OperationResult.of(intended, service, errors)));
    List<SecondResult> timeline = new java.util.ArrayList<>();
    for (int i = 0; i < seconds.size(); i++) {
      Histogram s = seconds.get(i);
      timeline.add(
          new SecondResult(
              startedAtMs / 1000 + i + 1,
              Map.of(
                  op,
                  new SecondResult.Op(
                      s.getTotalCount(),
                      0,
                      s.getValueAtPercentile(99),
                      s.getValueAtPercentile(99),
                      HistogramCodec.encode(s),
                      HistogramCodec.encode(s))),
              false));
    }
    return new RunResult(
        RunResult.FORMAT,
        label,
        "cql",
        "run",
        "site.ycsb.workloads.CoreWorkload",
        Map.of("recordcount", "1000"),
        4,
        0,
        1,
        "host-" + label,
        startedAtMs,
        durationMs,
        intended.getTotalCount() * 1000.0 / durationMs,
        ops,
        Map.of(),
        timeline,
        0);
  }
}
