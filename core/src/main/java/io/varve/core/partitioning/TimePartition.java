package io.varve.core.partitioning;

import io.varve.core.error.InvalidFieldException;

/**
 * How a namespace cuts time: slices (one table each) of {@code secondsPerTimeSlice}, cut into time
 * buckets of {@code secondsPerTimeBucket}, each spread over {@code eventBuckets} partitions.
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
    validate("timePartition", secondsPerTimeSlice, secondsPerTimeBucket, eventBuckets);
  }

  /** Checks the three values, naming fields under {@code path} in the error. */
  public static void validate(String path, long sliceSeconds, long bucketSeconds, int eventBuckets) {
    validate(path, "secondsPerTimeBucket", sliceSeconds, bucketSeconds, eventBuckets);
  }

  /** As {@link #validate(String, long, long, int)}, naming the bucket width {@code bucketKey}. */
  public static void validate(String path, String bucketKey, long sliceSeconds, long bucketSeconds, int eventBuckets) {
    if (sliceSeconds <= 0 || sliceSeconds > MAX_SECONDS_PER_TIME_SLICE) {
      throw new InvalidFieldException(path + ".secondsPerTimeSlice", sliceSeconds,
          "1.." + MAX_SECONDS_PER_TIME_SLICE + " seconds");
    }
    if (bucketSeconds <= 0 || bucketSeconds > sliceSeconds) {
      throw new InvalidFieldException(path + "." + bucketKey, bucketSeconds,
          "1.." + sliceSeconds + " seconds, at most the slice width");
    }
    if (sliceSeconds % bucketSeconds != 0) {
      throw new InvalidFieldException(path + ".secondsPerTimeSlice", sliceSeconds,
          "a multiple of " + bucketKey + " (" + bucketSeconds + ")");
    }
    if (eventBuckets < 1 || eventBuckets > MAX_EVENT_BUCKETS) {
      throw new InvalidFieldException(path + ".eventBuckets", eventBuckets, "1.." + MAX_EVENT_BUCKETS);
    }
  }

  public long millisPerTimeSlice() {
    return secondsPerTimeSlice * 1000;
  }

  public long millisPerTimeBucket() {
    return secondsPerTimeBucket * 1000;
  }
}
