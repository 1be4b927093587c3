package io.varve.reshaper.datasource.timeseries;

import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.BucketScan;
import io.varve.core.read.ReadPlanner;
import io.varve.reshaper.plan.TokenRange;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.spark.sql.connector.read.InputPartition;

/**
 * The reads of a scan, planned on the driver and run by the tasks. Read are the ACTIVE slices that
 * share time with the interval, as {@code ReadEventRecords} reads them (a CLOSED slice is out of
 * retention), each with the settings it was created with:
 *
 * <ul>
 *   <li>without ids, every slice table is scanned by token range: the ring cut into {@code
 *       splitCount} ranges, one Spark partition per range reading that range of every slice; a
 *       slice only partly inside the interval is read with its {@code event_time} restricted;
 *   <li>with ids (a pushed {@code time_series_id} filter), the partitions of those series are read
 *       by key, their time buckets and event buckets those core's {@link ReadPlanner} lists for the
 *       server's reads: no token range is scanned.
 * </ul>
 */
final class EventReads {

  /** At most this many partitions are read by key; more ids than that scan token ranges. */
  static final int MAX_KEY_READS = 100_000;

  private EventReads() {}

  /** One read of one slice table. */
  sealed interface Read extends Serializable permits RangeRead, KeyRead {
    String table();
  }

  /**
   * A token range {@code (start, end]} of a slice table; {@code whole} when the slice lies inside
   * the interval, so that no {@code event_time} restriction is needed.
   */
  record RangeRead(
      String table, long start, long end, long fromMillis, long toMillis, boolean whole)
      implements Read {}

  /** One partition of a slice table, the events of {@code [fromMillis, toMillis)}. */
  record KeyRead(
      String table, String series, long timeBucket, int eventBucket, long fromMillis, long toMillis)
      implements Read {}

  /** The part of a slice inside the interval; {@code whole} when that is all of it. */
  record SliceSpan(String table, long fromMillis, long toMillis, boolean whole)
      implements Serializable {}

  /**
   * The reads of one Spark partition, run in order: a token range {@code (start, end]} of each of
   * {@code spans} (one list, shared by every part of a scan, so that the driver holds the parts and
   * the slices, not their product), or partitions by key.
   */
  record Part(List<SliceSpan> spans, long start, long end, List<KeyRead> keys)
      implements InputPartition {

    /** The reads, made one at a time. */
    java.util.Iterator<Read> reads() {
      if (!keys.isEmpty()) {
        return java.util.List.<Read>copyOf(keys).iterator();
      }
      java.util.Iterator<SliceSpan> it = spans.iterator();
      return new java.util.Iterator<>() {
        @Override
        public boolean hasNext() {
          return it.hasNext();
        }

        @Override
        public Read next() {
          SliceSpan s = it.next();
          return new RangeRead(s.table(), start, end, s.fromMillis(), s.toMillis(), s.whole());
        }
      };
    }

    /** How many reads the part makes. */
    int size() {
      return keys.isEmpty() ? spans.size() : keys.size();
    }
  }

  /** The slices a read of {@code [fromMillis, toMillis)} touches, oldest first. */
  static List<TimeSlice> slices(List<TimeSlice> all, long fromMillis, long toMillis) {
    return all.stream()
        .filter(s -> s.status() == SliceStatus.ACTIVE && s.overlaps(fromMillis, toMillis))
        .toList();
  }

  /** Each range of the ring over every slice: one part per range; none without slices. */
  static List<Part> byRange(
      List<TimeSlice> slices, long fromMillis, long toMillis, int splitCount) {
    return byRange(slices, fromMillis, toMillis, Long.MIN_VALUE, Long.MAX_VALUE, splitCount);
  }

  /**
   * Each range of {@code (fromToken, toToken]} cut into {@code splitCount}, over every slice: one
   * part per range; none without slices.
   */
  static List<Part> byRange(
      List<TimeSlice> slices,
      long fromMillis,
      long toMillis,
      long fromToken,
      long toToken,
      int splitCount) {
    if (slices.isEmpty() || fromMillis >= toMillis) {
      return List.of();
    }
    List<SliceSpan> spans = new ArrayList<>(slices.size());
    for (TimeSlice slice : slices) {
      long from = Math.max(fromMillis, slice.start().toEpochMilli());
      long to = Math.min(toMillis, slice.end().toEpochMilli());
      boolean whole = from == slice.start().toEpochMilli() && to == slice.end().toEpochMilli();
      spans.add(new SliceSpan(slice.table(), from, to, whole));
    }
    List<SliceSpan> shared = List.copyOf(spans);
    List<Part> parts = new ArrayList<>();
    for (TokenRange range : TokenRange.split(fromToken, toToken, splitCount)) {
      parts.add(new Part(shared, range.start(), range.end(), List.of()));
    }
    return parts;
  }

  /**
   * The partitions of these series in the interval, read by key, cut into at most {@code maxParts}
   * parts of nearly equal counts; null when they are more than {@value #MAX_KEY_READS}.
   */
  static List<Part> byKey(
      List<TimeSlice> slices, Set<String> series, long fromMillis, long toMillis, int maxParts) {
    if (slices.isEmpty() || fromMillis >= toMillis || series.isEmpty()) {
      return List.of();
    }
    List<BucketScan> buckets;
    try {
      buckets = ReadPlanner.plan(slices, fromMillis, toMillis, null, MAX_KEY_READS);
    } catch (RuntimeException tooMany) { // more partitions than MAX_KEY_READS for one series
      return null;
    }
    long partitions = 0;
    for (BucketScan b : buckets) {
      partitions += b.eventBuckets();
    }
    if (partitions * series.size() > MAX_KEY_READS) {
      return null;
    }
    List<KeyRead> reads = new ArrayList<>();
    for (String id : series) {
      for (BucketScan b : buckets) {
        for (int e = 0; e < b.eventBuckets(); e++) {
          reads.add(
              new KeyRead(b.table(), id, b.timeBucketMillis(), e, b.fromMillis(), b.toMillis()));
        }
      }
    }
    int count = Math.max(1, Math.min(maxParts, reads.size()));
    List<Part> parts = new ArrayList<>(count);
    for (int i = 0; i < count; i++) {
      int from = (int) ((long) reads.size() * i / count);
      int to = (int) ((long) reads.size() * (i + 1) / count);
      parts.add(new Part(List.of(), 0, 0, List.copyOf(reads.subList(from, to))));
    }
    return parts;
  }
}
