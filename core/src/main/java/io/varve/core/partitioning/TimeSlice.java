package io.varve.core.partitioning;

import java.time.Instant;

/**
 * A time slice: the table holding a namespace's events of {@code [start, end)}, with the partition
 * settings in force when it was created. Slices of a namespace join with no gap and no overlap.
 * Reads and writes use only its place and partition settings; its {@link SliceLifecycle} says what
 * the control plane did to it since.
 */
public record TimeSlice(
    String namespace,
    Instant start,
    Instant end,
    String table,
    long secondsPerTimeBucket,
    int eventBuckets,
    SliceStatus status,
    SliceLifecycle lifecycle) {

  /** A slice with nothing recorded of its lifecycle yet. */
  public TimeSlice(
      String namespace,
      Instant start,
      Instant end,
      String table,
      long secondsPerTimeBucket,
      int eventBuckets,
      SliceStatus status) {
    this(
        namespace,
        start,
        end,
        table,
        secondsPerTimeBucket,
        eventBuckets,
        status,
        SliceLifecycle.NONE);
  }

  public TimeSlice {
    java.util.Objects.requireNonNull(lifecycle, "lifecycle");
    if (!start.isBefore(end)) {
      throw new IllegalArgumentException("slice start " + start + " not before end " + end);
    }
    long width = end.toEpochMilli() - start.toEpochMilli();
    if (width % (secondsPerTimeBucket * 1000) != 0) {
      throw new IllegalArgumentException(
          "slice width " + width + " ms not a multiple of the bucket");
    }
  }

  /** True when {@code epochMillis} is in {@code [start, end)}. */
  public boolean contains(long epochMillis) {
    return epochMillis >= start.toEpochMilli() && epochMillis < end.toEpochMilli();
  }

  /** True when the slice shares some time with {@code [fromMillis, toMillis)}. */
  public boolean overlaps(long fromMillis, long toMillis) {
    return start.toEpochMilli() < toMillis && end.toEpochMilli() > fromMillis;
  }

  /** Start, in epoch milliseconds, of the time bucket holding {@code epochMillis}. */
  public long timeBucketOf(long epochMillis) {
    long startMillis = start.toEpochMilli();
    long width = secondsPerTimeBucket * 1000;
    return startMillis + Math.floorDiv(epochMillis - startMillis, width) * width;
  }

  public long bucketMillis() {
    return secondsPerTimeBucket * 1000;
  }

  /** This slice moved to {@code newStatus} at {@code at}. */
  public TimeSlice withStatus(SliceStatus newStatus, Instant at) {
    return with(newStatus, lifecycle.withStatusTime(at));
  }

  /** This slice, its table's compaction set to {@code strategy} at {@code at}. */
  public TimeSlice withCompaction(String strategy, Instant at) {
    return with(status, lifecycle.withCompaction(strategy, at));
  }

  /** This slice with its measured partition sizes. */
  public TimeSlice withHistogram(SliceHistogram histogram) {
    return with(status, lifecycle.withHistogram(histogram));
  }

  /** This slice with {@code pending} as the table being filled for its re-partitioning. */
  public TimeSlice withPending(java.util.Optional<SliceLifecycle.PendingTable> pending) {
    return with(status, lifecycle.withPending(pending));
  }

  /**
   * This slice read from its pending table with that table's settings from now on, its current
   * table kept as the previous one until {@code dropOldAfter}.
   */
  public TimeSlice swapped(Instant dropOldAfter) {
    SliceLifecycle.PendingTable p =
        lifecycle
            .pending()
            .orElseThrow(
                () -> new IllegalStateException("slice " + start + " has no pending table"));
    return new TimeSlice(
        namespace,
        start,
        end,
        p.table(),
        p.secondsPerTimeBucket(),
        p.eventBuckets(),
        status,
        lifecycle.swapped(new SliceLifecycle.PreviousTable(table, dropOldAfter)));
  }

  private TimeSlice with(SliceStatus newStatus, SliceLifecycle newLifecycle) {
    return new TimeSlice(
        namespace, start, end, table, secondsPerTimeBucket, eventBuckets, newStatus, newLifecycle);
  }
}
