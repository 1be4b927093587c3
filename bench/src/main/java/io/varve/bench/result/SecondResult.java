package io.varve.bench.result;

import java.util.Map;

/**
 * One second of a run.
 *
 * @param epochSecond the wall-clock second (UTC) the sample covers, so loaders line up (the first
 *     and last seconds of a run are partial)
 * @param operations per operation type
 * @param warmup whether the second belongs to the warm-up (shown, but not in the run's totals)
 * @param load what was sampled beside the operations in this second: each total's increase, each
 *     level as sampled (docs/bench.md#load); empty in files written before it existed
 */
public record SecondResult(
    long epochSecond, Map<String, Op> operations, boolean warmup, Map<String, Double> load) {

  public SecondResult {
    load = load == null ? Map.of() : load;
  }

  /** A second with nothing sampled beside the operations. */
  public SecondResult(long epochSecond, Map<String, Op> operations, boolean warmup) {
    this(epochSecond, operations, warmup, Map.of());
  }

  /**
   * One operation type in one second.
   *
   * @param count successful operations
   * @param errors failed operations
   * @param p99IntendedUs 99th percentile latency from the intended start
   * @param p99ServiceUs 99th percentile service time
   * @param intendedHistogram encoded histogram (for merging)
   * @param serviceHistogram encoded histogram (for merging)
   */
  public record Op(
      long count,
      long errors,
      long p99IntendedUs,
      long p99ServiceUs,
      String intendedHistogram,
      String serviceHistogram) {}

  /** Successful operations of every type in this second. */
  public long count() {
    return operations.values().stream().mapToLong(Op::count).sum();
  }
}
