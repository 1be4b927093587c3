package io.varve.core.read;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Lists the time buckets a read of {@code [from, to)} must scan, newest first. Only ACTIVE slices
 * are read (a CLOSED slice is out of retention). A cursor narrows the upper end to the cursor's
 * event time (inclusive, since events of the same millisecond may follow it).
 */
public final class ReadPlanner {

  private ReadPlanner() {}

  public static List<BucketScan> plan(
      List<TimeSlice> slices, long fromMillis, long toMillis, Cursor cursor, int maxPartitions) {
    long upper = cursor == null ? toMillis : Math.min(toMillis, cursor.eventTimeMillis() + 1);
    List<TimeSlice> overlapping = new ArrayList<>();
    for (TimeSlice slice : slices) {
      if (slice.status() == SliceStatus.ACTIVE && slice.overlaps(fromMillis, upper)) {
        overlapping.add(slice);
      }
    }
    overlapping.sort(Comparator.comparing(TimeSlice::start).reversed());
    List<BucketScan> scans = new ArrayList<>();
    long partitions = 0;
    for (TimeSlice slice : overlapping) {
      long sliceFrom = Math.max(fromMillis, slice.start().toEpochMilli());
      long sliceTo = Math.min(upper, slice.end().toEpochMilli());
      for (long bucket = slice.timeBucketOf(sliceTo - 1);
          bucket + slice.bucketMillis() > sliceFrom;
          bucket -= slice.bucketMillis()) {
        partitions += slice.eventBuckets();
        if (partitions > maxPartitions) {
          throw new InvalidFieldException(
              "timeInterval",
              InvalidFieldException.shown("spans more than " + maxPartitions + " partitions"),
              "a narrower interval");
        }
        scans.add(
            new BucketScan(
                slice.table(),
                bucket,
                slice.eventBuckets(),
                Math.max(sliceFrom, bucket),
                Math.min(sliceTo, bucket + slice.bucketMillis())));
      }
    }
    return scans;
  }
}
