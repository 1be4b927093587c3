package io.varve.bench.engine;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Records every operation of a run twice: the latency from the intended start time (corrected for
 * coordinated omission when a target rate is set) and the raw service time. Latencies are in
 * microseconds, as in YCSB's own output. Failed operations are counted by status name and kept out
 * of the latency histograms, so a fast error never flatters a percentile.
 *
 * <p>Thread-safe: client threads record concurrently, one sampler thread takes interval snapshots.
 */
public final class OperationRecorder {
  private static final int SIGNIFICANT_DIGITS = 3;

  private final Map<String, Operation> operations = new ConcurrentHashMap<>();
  private final java.util.concurrent.atomic.LongAccumulator lastEndNs =
      new java.util.concurrent.atomic.LongAccumulator(Math::max, Long.MIN_VALUE);

  /** Records one finished operation. Times are {@link System#nanoTime()} readings. */
  public void record(
      String operation, String status, boolean ok, long intendedStartNs, long startNs, long endNs) {
    Operation op = operations.computeIfAbsent(operation, name -> new Operation());
    lastEndNs.accumulate(endNs);
    if (ok) {
      op.intended.recordValue(Math.max(0, (endNs - intendedStartNs) / 1_000));
      op.service.recordValue(Math.max(0, (endNs - startNs) / 1_000));
    } else {
      op.errors.computeIfAbsent(status, s -> new LongAdder()).increment();
    }
  }

  /**
   * Takes what was recorded since the previous call, per operation, and adds it to the run's totals
   * unless it belongs to the warm-up. Called once per second by the sampler and once at the end of
   * the run.
   */
  public Map<String, Interval> sampleInterval(boolean measured) {
    Map<String, Interval> sample = new java.util.TreeMap<>();
    operations.forEach((name, op) -> sample.put(name, op.sample(measured)));
    return sample;
  }

  /** When the last operation recorded so far ended ({@link System#nanoTime()}), if any. */
  public java.util.OptionalLong lastEndNs() {
    long last = lastEndNs.get();
    return last == Long.MIN_VALUE
        ? java.util.OptionalLong.empty()
        : java.util.OptionalLong.of(last);
  }

  /** Totals of everything sampled after the warm-up so far, per operation. */
  public Map<String, Interval> totals() {
    Map<String, Interval> totals = new java.util.TreeMap<>();
    operations.forEach((name, op) -> totals.put(name, op.totals()));
    return totals;
  }

  /**
   * What one operation recorded over an interval (or the whole run).
   *
   * @param intended latency from the intended start, in microseconds
   * @param service raw service time, in microseconds
   * @param errors failed operations by status name
   */
  public record Interval(Histogram intended, Histogram service, Map<String, Long> errors) {
    /** Successful operations. */
    public long count() {
      return intended.getTotalCount();
    }

    /** Failed operations of every kind. */
    public long errorCount() {
      return errors.values().stream().mapToLong(Long::longValue).sum();
    }
  }

  private static final class Operation {
    final Recorder intended = new Recorder(SIGNIFICANT_DIGITS);
    final Recorder service = new Recorder(SIGNIFICANT_DIGITS);
    final Map<String, LongAdder> errors = new ConcurrentHashMap<>();
    final Histogram totalIntended = new Histogram(SIGNIFICANT_DIGITS);
    final Histogram totalService = new Histogram(SIGNIFICANT_DIGITS);
    final Map<String, Long> errorsSampled = new java.util.TreeMap<>();

    final Map<String, Long> errorsTotal = new java.util.TreeMap<>();

    synchronized Interval sample(boolean measured) {
      Histogram i = intended.getIntervalHistogram();
      Histogram s = service.getIntervalHistogram();
      Map<String, Long> delta = new java.util.TreeMap<>();
      errors.forEach(
          (status, adder) -> {
            long now = adder.sum();
            long before = errorsSampled.getOrDefault(status, 0L);
            if (now > before) {
              delta.put(status, now - before);
            }
            errorsSampled.put(status, now);
          });
      if (measured) {
        totalIntended.add(i);
        totalService.add(s);
        delta.forEach((status, n) -> errorsTotal.merge(status, n, Long::sum));
      }
      return new Interval(i, s, delta);
    }

    synchronized Interval totals() {
      return new Interval(
          totalIntended.copy(), totalService.copy(), new java.util.TreeMap<>(errorsTotal));
    }
  }
}
