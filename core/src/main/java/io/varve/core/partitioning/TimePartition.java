package io.varve.core.partitioning;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.namespace.NamespaceBounds;

/**
 * How a namespace cuts time: slices (one table each) of {@code secondsPerTimeSlice}, cut into time
 * buckets of {@code secondsPerTimeBucket}, each spread over {@code eventBuckets} partitions.
 *
 * <p>The record itself only checks what keeps the arithmetic sound (positive widths, the slice a
 * multiple of the bucket), so that slices stored with older, looser bounds still load; the
 * documented bounds of new configurations ({@link NamespaceBounds}) are checked by {@link
 * #validate(String, String, long, long, int)}.
 *
 * @param secondsPerTimeSlice width of a time slice; a positive multiple of the bucket width
 * @param secondsPerTimeBucket width of a time bucket; positive
 * @param eventBuckets partitions per time bucket, {@value #MAX_EVENT_BUCKETS} at most
 */
public record TimePartition(long secondsPerTimeSlice, long secondsPerTimeBucket, int eventBuckets) {

  public static final int MAX_EVENT_BUCKETS = 64;

  /** Ten years: a wider slice would never be dropped by retention in practice. */
  public static final long MAX_SECONDS_PER_TIME_SLICE = 10L * 366 * 24 * 3600;

  /** Default: slices of a day, buckets of an hour, 4 event buckets. */
  public static final TimePartition DEFAULT = new TimePartition(86_400, 3_600, 4);

  public TimePartition {
    if (secondsPerTimeSlice <= 0
        || secondsPerTimeBucket <= 0
        || secondsPerTimeSlice % secondsPerTimeBucket != 0
        || secondsPerTimeSlice > MAX_SECONDS_PER_TIME_SLICE
        || eventBuckets < 1
        || eventBuckets > MAX_EVENT_BUCKETS) {
      throw new IllegalArgumentException(
          "not a time partition: slice "
              + secondsPerTimeSlice
              + "s, bucket "
              + secondsPerTimeBucket
              + "s, "
              + eventBuckets
              + " event buckets");
    }
  }

  /** Checks the three values, naming fields under {@code path} in the error. */
  public static void validate(
      String path, long sliceSeconds, long bucketSeconds, int eventBuckets) {
    validate(path, "secondsPerTimeBucket", sliceSeconds, bucketSeconds, eventBuckets);
  }

  /** As {@link #validate(String, long, long, int)}, naming the bucket width {@code bucketKey}. */
  public static void validate(
      String path, String bucketKey, long sliceSeconds, long bucketSeconds, int eventBuckets) {
    long minSlice = NamespaceBounds.MIN_SECONDS_PER_TIME_SLICE;
    if (sliceSeconds < minSlice || sliceSeconds > MAX_SECONDS_PER_TIME_SLICE) {
      throw new InvalidFieldException(
          path + ".secondsPerTimeSlice",
          sliceSeconds,
          minSlice + ".." + MAX_SECONDS_PER_TIME_SLICE + " seconds");
    }
    long minBucket = NamespaceBounds.MIN_SECONDS_PER_TIME_BUCKET;
    if (bucketSeconds < minBucket || bucketSeconds > sliceSeconds) {
      throw new InvalidFieldException(
          path + "." + bucketKey,
          bucketSeconds,
          minBucket + ".." + sliceSeconds + " seconds, at most the slice width");
    }
    if (sliceSeconds % bucketSeconds != 0) {
      throw new InvalidFieldException(
          path + ".secondsPerTimeSlice",
          sliceSeconds,
          "a multiple of " + bucketKey + " (" + bucketSeconds + ")");
    }
    long buckets = sliceSeconds / bucketSeconds;
    if (buckets > NamespaceBounds.MAX_TIME_BUCKETS_PER_SLICE) {
      throw new InvalidFieldException(
          path + "." + bucketKey,
          bucketSeconds,
          "at least "
              + Math.floorDiv(
                  sliceSeconds + NamespaceBounds.MAX_TIME_BUCKETS_PER_SLICE - 1,
                  NamespaceBounds.MAX_TIME_BUCKETS_PER_SLICE)
              + " seconds: a slice of "
              + sliceSeconds
              + "s would hold "
              + buckets
              + " time buckets, at most "
              + NamespaceBounds.MAX_TIME_BUCKETS_PER_SLICE);
    }
    if (eventBuckets < 1 || eventBuckets > MAX_EVENT_BUCKETS) {
      throw new InvalidFieldException(
          path + ".eventBuckets", eventBuckets, "1.." + MAX_EVENT_BUCKETS);
    }
  }

  public long millisPerTimeSlice() {
    return secondsPerTimeSlice * 1000;
  }

  public long millisPerTimeBucket() {
    return secondsPerTimeBucket * 1000;
  }
}
