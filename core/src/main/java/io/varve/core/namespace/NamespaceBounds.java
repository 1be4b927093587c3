package io.varve.core.namespace;

import io.varve.core.error.InvalidFieldException;
import java.time.Duration;

/**
 * Bounds of the namespace configuration values that multiply work: every time slice is a Cassandra
 * table (a schema change to create, memory on every node), every index slice an OpenSearch index
 * (at least one shard). The bounds are far beyond what a namespace needs in normal use (the
 * reference configuration pre-creates 3 slices and holds 12) and small enough that no single
 * namespace can exhaust the server's memory or the clusters' schema. Checked before anything is
 * created; the reasons are documented in docs/limits.md, and docs/namespace-configuration.md shows
 * each bound beside its key (a test ties every constant here to its row there).
 */
public final class NamespaceBounds {

  /**
   * Narrowest time slice: an hour. Each slice is a table; hourly is the finest the reference uses.
   */
  public static final long MIN_SECONDS_PER_TIME_SLICE = 3_600;

  /**
   * Narrowest time bucket: a minute. Narrower buckets only multiply the partitions a read scans.
   */
  public static final long MIN_SECONDS_PER_TIME_BUCKET = 60;

  /** Most time buckets per slice (a year of one-hour buckets is 8,784). */
  public static final long MAX_TIME_BUCKETS_PER_SLICE = 10_000;

  /** Most slice tables that may exist at once to cover the write window. */
  public static final long MAX_WRITE_WINDOW_SLICES = 1_000;

  /** Most slice tables a namespace may hold up to its retention's delete_after. */
  public static final long MAX_RETAINED_SLICES = 10_000;

  /** Narrowest index slice: an hour (each one is an index of at least one shard). */
  public static final long MIN_SECONDS_PER_INDEX_SLICE = 3_600;

  /** Widest index slice, as for time slices: ten years. */
  public static final long MAX_SECONDS_PER_INDEX_SLICE = 10L * 366 * 24 * 3600;

  /** Most index slices live writes may address (the index's write window). */
  public static final long MAX_INDEX_WINDOW_SLICES = 500;

  /** Most index slices a namespace may hold up to its index retention's delete_after. */
  public static final long MAX_RETAINED_INDEX_SLICES = 5_000;

  /** Longest duration of any key (acceptLimit, close_after, delete_after): 100 years. */
  public static final Duration MAX_DURATION = Duration.ofDays(36_525);

  /**
   * Shortest index refresh interval: OpenSearch's own default; shorter refreshes load the cluster.
   */
  public static final Duration MIN_REFRESH_INTERVAL = Duration.ofSeconds(1);

  /** Most fields of one namespace's index mapping: each is a field of every index slice. */
  public static final int MAX_INDEX_FIELDS = 256;

  /** Longest wait of a fire-and-forget write to be batched ({@code queueBuffering.coalesce}). */
  public static final Duration MAX_COALESCE = Duration.ofSeconds(60);

  /**
   * Largest fire-and-forget write queue of a namespace, in bytes ({@code
   * queueBuffering.bufferCapacity}).
   */
  public static final long MAX_BUFFER_CAPACITY = 1L << 30;

  /**
   * Highest paced drain of a namespace's fire-and-forget queue, in events per second on each server
   * ({@code queueBuffering.drainRate}); far beyond what one server writes.
   */
  public static final long MAX_DRAIN_RATE = 10_000_000;

  /** Longest {@code physicalStorage.cluster} name, in characters. */
  public static final int MAX_CLUSTER_NAME_LENGTH = 128;

  private NamespaceBounds() {}

  /** Refuses a duration longer than {@link #MAX_DURATION}; returns it otherwise. */
  public static Duration duration(String field, Duration value) {
    if (value.compareTo(MAX_DURATION) > 0) {
      throw new InvalidFieldException(
          field,
          InvalidFieldException.shown(value.getSeconds() + "s"),
          "a positive duration of at most " + MAX_DURATION.toDays() + "d");
    }
    return value;
  }

  /**
   * The most slices of {@code sliceSeconds} that can overlap an interval of {@code seconds}: the
   * interval rarely starts on a slice boundary, so one more than it would take end to end.
   * Arguments are bounded by {@link #MAX_DURATION} and the slice width bounds, so nothing
   * overflows.
   */
  public static long slicesOver(long seconds, long sliceSeconds) {
    return Math.floorDiv(seconds + sliceSeconds - 1, sliceSeconds) + 1;
  }

  /** Seconds of a duration, rounded up. */
  public static long ceilSeconds(Duration d) {
    return d.getSeconds() + (d.getNano() > 0 ? 1 : 0);
  }

  /**
   * Refuses a slice width whose write window of {@code window} (acceptLimit + futureLimit + one
   * slice) needs more than {@code max} slices; names {@code field} (the acceptLimit).
   */
  public static void window(
      String field,
      Duration acceptLimit,
      Duration futureLimit,
      long sliceSeconds,
      long max,
      String what) {
    long seconds = ceilSeconds(acceptLimit) + ceilSeconds(futureLimit) + sliceSeconds;
    long slices = slicesOver(seconds, sliceSeconds);
    if (slices > max) {
      throw new InvalidFieldException(
          field,
          InvalidFieldException.shown(ceilSeconds(acceptLimit) + "s"),
          "at most "
              + max
              + " "
              + what
              + " across the write window; acceptLimit + the server's futureLimit ("
              + ceilSeconds(futureLimit)
              + "s) + one slice of "
              + sliceSeconds
              + "s needs "
              + slices
              + ": a shorter acceptLimit or wider slices");
    }
  }

  /**
   * Refuses a retention whose delete_after (or the acceptLimit, when longer) keeps more than {@code
   * max} slices at once; names {@code field} (the delete_after).
   */
  public static void retained(
      String field,
      Duration deleteAfter,
      Duration acceptLimit,
      Duration futureLimit,
      long sliceSeconds,
      long max,
      String what) {
    long kept = Math.max(ceilSeconds(deleteAfter), ceilSeconds(acceptLimit));
    long seconds = kept + ceilSeconds(futureLimit) + 2 * sliceSeconds;
    long slices = slicesOver(seconds, sliceSeconds);
    if (slices > max) {
      throw new InvalidFieldException(
          field,
          InvalidFieldException.shown(ceilSeconds(deleteAfter) + "s"),
          "at most "
              + max
              + " "
              + what
              + " held until delete_after; slices of "
              + sliceSeconds
              + "s need "
              + slices
              + ": a shorter delete_after or wider slices");
    }
  }
}
