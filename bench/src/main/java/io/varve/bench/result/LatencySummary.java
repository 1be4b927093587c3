package io.varve.bench.result;

import org.HdrHistogram.Histogram;

/**
 * Percentiles of one latency histogram, in microseconds.
 *
 * @param p999Us the 99.9th percentile
 */
public record LatencySummary(
    double avgUs, long minUs, long p50Us, long p95Us, long p99Us, long p999Us, long maxUs) {

  /** Reads the percentiles off a histogram (all zero when it is empty). */
  public static LatencySummary of(Histogram h) {
    if (h.getTotalCount() == 0) {
      return new LatencySummary(0, 0, 0, 0, 0, 0, 0);
    }
    return new LatencySummary(
        h.getMean(),
        h.getMinValue(),
        h.getValueAtPercentile(50),
        h.getValueAtPercentile(95),
        h.getValueAtPercentile(99),
        h.getValueAtPercentile(99.9),
        h.getMaxValue());
  }

  /** A statistic by the name SLA clauses use: avg, min, p50, p95, p99, p99.9, max. */
  public double statistic(String name) {
    return switch (name) {
      case "avg" -> avgUs;
      case "min" -> minUs;
      case "p50" -> p50Us;
      case "p95" -> p95Us;
      case "p99" -> p99Us;
      case "p99.9" -> p999Us;
      case "max" -> maxUs;
      default -> throw new IllegalArgumentException("unknown statistic " + name);
    };
  }

  /** Statistic names accepted by {@link #statistic}. */
  public static final java.util.List<String> STATISTICS =
      java.util.List.of("avg", "min", "p50", "p95", "p99", "p99.9", "max");
}
