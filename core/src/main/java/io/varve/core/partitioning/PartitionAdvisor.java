package io.varve.core.partitioning;

import io.varve.core.namespace.NamespaceBounds;
import java.time.Instant;

/**
 * Recommends the partition settings of future slices from a measured slice: enough partitions that
 * the slice's 99th-percentile partition would hold at most the target, few enough that a read does
 * not scan many nearly empty ones.
 *
 * <p>The load of a slice is its 99th-percentile partition over the target, in bytes or in rows,
 * whichever is larger. A load within {@code [1/8, 1]} keeps the settings; outside it the settings
 * aim at half the target. Event buckets change first (a time series' events spread evenly over its
 * event buckets, whatever their times), up to {@value TimePartition#MAX_EVENT_BUCKETS}; the rest
 * changes the time bucket width, which must divide the slice width and stay within the namespace
 * bounds. Fewer partitions go the same way back: event buckets down to one first, then wider time
 * buckets. The percentile, not the largest partition, so that one outlier does not re-partition a
 * namespace: the largest is shown beside it.
 */
public final class PartitionAdvisor {

  /** A load below this is over-partitioned: reads scan many small partitions. */
  public static final double UNDER_LOAD = 1.0 / 8;

  /** What a changed setting aims at: half the target, room to grow before the next change. */
  public static final double AIM = 0.5;

  private PartitionAdvisor() {}

  /** The size a partition should stay within. */
  public record Target(long bytes, long rows) {
    public Target {
      if (bytes < 1 || rows < 1) {
        throw new IllegalArgumentException("partition target " + bytes + " B, " + rows + " rows");
      }
    }
  }

  /**
   * The settings recommended for slices created from now on.
   *
   * @param secondsPerTimeBucket the recommended time bucket width
   * @param eventBuckets the recommended event buckets
   * @param load the measured slice's load (its 99th-percentile partition over the target)
   * @param basedOn the start of the measured slice
   * @param reason why, in a sentence
   */
  public record Recommendation(
      long secondsPerTimeBucket, int eventBuckets, double load, Instant basedOn, String reason) {

    /** Whether {@code partition} already has these settings. */
    public boolean matches(TimePartition partition) {
      return partition.secondsPerTimeBucket() == secondsPerTimeBucket
          && partition.eventBuckets() == eventBuckets;
    }
  }

  /** Whether {@code slice} has a histogram of some partitions: an empty slice says nothing. */
  public static boolean hasPartitions(TimeSlice slice) {
    return slice.lifecycle().histogram().filter(h -> h.partitions() > 0).isPresent();
  }

  /**
   * The recommendation from {@code slice}'s histogram, for future slices of {@code current}'s
   * width.
   */
  public static Recommendation recommend(
      TimeSlice slice, SliceHistogram histogram, TimePartition current, Target target) {
    double load =
        Math.max(
            (double) histogram.p99Bytes() / target.bytes(),
            (double) histogram.p99Rows() / target.rows());
    long sliceSeconds = current.secondsPerTimeSlice();
    long measuredBucket = slice.secondsPerTimeBucket();
    int measuredEvents = slice.eventBuckets();
    String measured =
        "the 99th-percentile partition of slice "
            + slice.start()
            + " ("
            + measuredEvents
            + " event buckets, "
            + measuredBucket
            + " s time buckets) holds "
            + histogram.p99Rows()
            + " rows, about "
            + histogram.p99Bytes()
            + " bytes: "
            + String.format(java.util.Locale.ROOT, "%.3f", load)
            + " of the target ("
            + target.rows()
            + " rows, "
            + target.bytes()
            + " bytes)";
    if (histogram.partitions() == 0 || (load >= UNDER_LOAD && load <= 1)) {
      long bucket = valid(measuredBucket, sliceSeconds, true);
      return new Recommendation(
          bucket,
          measuredEvents,
          load,
          slice.start(),
          histogram.partitions() == 0
              ? "slice " + slice.start() + " holds no partition: nothing to change"
              : measured + ": within it");
    }
    // how many times more partitions each (series, time) needs
    double factor = load / AIM;
    double wanted = measuredEvents * factor;
    int events = (int) Math.max(1, Math.min(TimePartition.MAX_EVENT_BUCKETS, Math.ceil(wanted)));
    if (load < UNDER_LOAD) {
      events = (int) Math.max(1, Math.min(measuredEvents, Math.ceil(wanted)));
    }
    double rest = wanted / events; // > 1: narrower time buckets; < 1: wider
    long bucket = measuredBucket;
    if (rest > 1.0001) {
      bucket = valid((long) Math.floor(measuredBucket / rest), sliceSeconds, true);
    } else if (rest < 0.9999 && events == 1) {
      bucket = valid((long) Math.ceil(measuredBucket / rest), sliceSeconds, false);
    } else {
      bucket = valid(measuredBucket, sliceSeconds, true);
    }
    String change =
        load > 1
            ? ": more partitions, aiming at half the target"
            : ": over-partitioned (below " + UNDER_LOAD + " of it), fewer partitions";
    return new Recommendation(bucket, events, load, slice.start(), measured + change);
  }

  /**
   * The valid time bucket width nearest {@code wanted} in the given direction: one that divides the
   * slice, is at least the namespace minimum and leaves at most the bound of buckets per slice.
   *
   * @param down the largest valid width at most {@code wanted} (or the smallest valid one when none
   *     is); otherwise the smallest at least {@code wanted} (or the slice width)
   */
  static long valid(long wanted, long sliceSeconds, boolean down) {
    long min =
        Math.max(
            NamespaceBounds.MIN_SECONDS_PER_TIME_BUCKET,
            ceilDiv(sliceSeconds, NamespaceBounds.MAX_TIME_BUCKETS_PER_SLICE));
    java.util.TreeSet<Long> widths = new java.util.TreeSet<>();
    for (long d = 1; d * d <= sliceSeconds; d++) { // at most sqrt(ten years in seconds) steps
      if (sliceSeconds % d == 0) {
        for (long b : new long[] {d, sliceSeconds / d}) {
          if (b >= min) {
            widths.add(b);
          }
        }
      }
    }
    Long near = down ? widths.floor(wanted) : widths.ceiling(wanted);
    if (near == null) {
      near = down ? widths.first() : widths.last();
    }
    return near;
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
