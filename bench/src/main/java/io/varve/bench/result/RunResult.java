package io.varve.bench.result;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;
import java.util.Map;

/**
 * Everything one run (or several merged loader runs) measured: the JSON result file.
 *
 * @param format result file format version
 * @param label the run's name in reports
 * @param binding the binding that ran
 * @param phase {@code load} or {@code run}
 * @param workload the workload class
 * @param properties the YCSB properties the run used
 * @param threads client threads (summed over merged loaders)
 * @param targetOpsPerSec the target rate (0 = as fast as possible)
 * @param loaders how many loader runs were merged into this result
 * @param host the machine the run was on (several for merged results)
 * @param startedAtMs wall-clock start of the measured part of the run (after the warm-up), epoch
 *     milliseconds
 * @param durationMs wall-clock duration of the measured part
 * @param throughput successful operations per second over the duration
 * @param operations per operation type
 * @param counters binding counters (e.g. throttled attempts that were retried)
 * @param timeline one entry per second, the warm-up's included (and marked)
 * @param warmupMs how long the run warmed up before the measured part started (0: no warm-up)
 * @param load over the measured part, what was sampled beside the operations (docs/bench.md#load):
 *     each total's difference ({@code loader.cpu_ms}, {@code cql.cpu_ms}...) and each level's
 *     {@code .mean} and {@code .max}; empty in files written before it existed
 */
public record RunResult(
    int format,
    String label,
    String binding,
    String phase,
    String workload,
    Map<String, String> properties,
    int threads,
    long targetOpsPerSec,
    int loaders,
    String host,
    long startedAtMs,
    long durationMs,
    double throughput,
    Map<String, OperationResult> operations,
    Map<String, Long> counters,
    List<SecondResult> timeline,
    long warmupMs,
    Map<String, Double> load) {

  /** The current format version. */
  public static final int FORMAT = 1;

  public RunResult {
    load = load == null ? Map.of() : load;
  }

  /** A result with nothing sampled beside the operations. */
  public RunResult(
      int format,
      String label,
      String binding,
      String phase,
      String workload,
      Map<String, String> properties,
      int threads,
      long targetOpsPerSec,
      int loaders,
      String host,
      long startedAtMs,
      long durationMs,
      double throughput,
      Map<String, OperationResult> operations,
      Map<String, Long> counters,
      List<SecondResult> timeline,
      long warmupMs) {
    this(
        format,
        label,
        binding,
        phase,
        workload,
        properties,
        threads,
        targetOpsPerSec,
        loaders,
        host,
        startedAtMs,
        durationMs,
        throughput,
        operations,
        counters,
        timeline,
        warmupMs,
        Map.of());
  }

  /** Failed operations of every type. */
  @JsonIgnore
  public long errorCount() {
    return operations.values().stream().mapToLong(OperationResult::errorCount).sum();
  }

  /** Successful operations of every type. */
  @JsonIgnore
  public long count() {
    return operations.values().stream().mapToLong(OperationResult::count).sum();
  }
}
