package io.varve.bench.result;

import com.fasterxml.jackson.annotation.JsonIgnore;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * One operation type (READ, UPDATE, INSERT, SCAN, DELETE) over a whole run.
 *
 * @param count successful operations
 * @param errors failed operations by status name (e.g. {@code ERROR}, {@code NOT_FOUND}, {@code
 *     THROTTLED})
 * @param intended latency from the intended start time (coordinated-omission corrected)
 * @param service raw service time
 * @param intendedHistogram the full intended-latency histogram, encoded, for merging
 * @param serviceHistogram the full service-time histogram, encoded, for merging
 */
public record OperationResult(
    long count,
    Map<String, Long> errors,
    LatencySummary intended,
    LatencySummary service,
    String intendedHistogram,
    String serviceHistogram) {

  /** Builds the summary from the two histograms. */
  public static OperationResult of(
      Histogram intended, Histogram service, Map<String, Long> errors) {
    return new OperationResult(
        intended.getTotalCount(),
        Map.copyOf(errors),
        LatencySummary.of(intended),
        LatencySummary.of(service),
        HistogramCodec.encode(intended),
        HistogramCodec.encode(service));
  }

  /** All failed operations. */
  @JsonIgnore
  public long errorCount() {
    return errors.values().stream().mapToLong(Long::longValue).sum();
  }

  /** The latency summary of one kind. */
  public LatencySummary latency(LatencyKind kind) {
    return kind == LatencyKind.INTENDED ? intended : service;
  }
}
