package io.varve.bench.result;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.List;
import java.util.Map;

/**
 * What one {@code bench capacity} search found: {@code capacity.json} in its result directory, the
 * input of {@code bench cost}.
 *
 * @param format the summary file's format version
 * @param label the search's name
 * @param binding the binding searched
 * @param workload the workload class
 * @param properties the YCSB properties of its steps, without the per-step target and lengths
 * @param sla the SLA as given
 * @param latency the latency kind the SLA was checked against
 * @param capacityOpsPerSec the highest target that held (0: none did)
 * @param atMax whether the SLA still held at {@code --max}, so that the capacity may be higher
 * @param stepSeconds measured seconds of each step
 * @param warmupSeconds warm-up seconds of each step
 * @param tolerance the share under its target a step's throughput may fall and still hold
 * @param steps every step, in the order run
 * @param operations at the step that held at the capacity: successful operations per type (the
 *     workload's mix as it ran); empty when no step held
 * @param counters at that step: the binding's counters (e.g. consumed capacity units)
 */
public record CapacitySummary(
    int format,
    String label,
    String binding,
    String workload,
    Map<String, String> properties,
    String sla,
    String latency,
    long capacityOpsPerSec,
    boolean atMax,
    long stepSeconds,
    long warmupSeconds,
    double tolerance,
    List<Step> steps,
    Map<String, Long> operations,
    Map<String, Long> counters) {

  /** The current format version. */
  public static final int FORMAT = 1;

  /** The file name a search writes in its result directory. */
  public static final String FILE_NAME = "capacity.json";

  /**
   * One step of the search.
   *
   * @param index 1-based
   * @param phase {@code ramp}, {@code down} or {@code bisect}
   * @param target the step's target, ops/s
   * @param throughput what it achieved, ops/s
   * @param held whether the SLA held and the throughput reached the target
   * @param p99Ms the step's highest p99 latency over its operation types (of the SLA's kind), ms
   * @param file the step's result file, relative to the summary
   */
  public record Step(
      int index,
      String phase,
      long target,
      double throughput,
      boolean held,
      double p99Ms,
      String file) {}

  /** Successful operations at the capacity, over every type. */
  @JsonIgnore
  public long operationCount() {
    return operations.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The share of {@code type}'s operations at the capacity (0 when none ran). */
  public double share(String type) {
    long all = operationCount();
    return all == 0 ? 0 : operations.getOrDefault(type, 0L) / (double) all;
  }
}
