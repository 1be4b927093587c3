package io.varve.server.buffer;

import com.netflix.concurrency.limits.limit.Gradient2Limit;
import java.util.concurrent.TimeUnit;

/**
 * How many slices of one namespace's queue are written at once: a window that follows the store's
 * latency (Netflix concurrency-limits' gradient limit). While slices come back as fast as they did
 * on average, the window grows by a few slices; when they come back slower, it shrinks in
 * proportion. So the drain keeps Cassandra busy without queueing in front of it: a node that slows
 * down (compaction, a flush, reads beside the drain) gets fewer batches at once instead of a second
 * of queue, and other writes and reads keep their latency. The window stays within {@value
 * #MIN_SLICES}..{@value #MAX_SLICES}; it does not grow while the drain uses less than half of it
 * (the queue, not the store, is then what limits). A slice written as fast as usual adds a fifth of
 * a slice; a slow one takes away up to a tenth of the window, less that fifth, so however slow the
 * store the window settles at two slices. Thread-safe.
 */
final class DrainWindow {

  static final int INITIAL_SLICES = 4;
  static final int MIN_SLICES = 2;
  static final int MAX_SLICES = 64;

  private final Gradient2Limit limit =
      Gradient2Limit.newBuilder()
          .initialLimit(INITIAL_SLICES)
          .minLimit(MIN_SLICES)
          .maxConcurrency(MAX_SLICES)
          .queueSize(1)
          .build();

  /** Slices that may be written at once now. */
  int slices() {
    return limit.getLimit();
  }

  /**
   * Records one slice's write.
   *
   * @param startNanos when it was handed to the store
   * @param nanos how long the store took to write it
   * @param inFlight slices being written when it started, itself included
   * @param failed whether the store failed any of its batches
   */
  void written(long startNanos, long nanos, int inFlight, boolean failed) {
    limit.onSample(startNanos, Math.max(1, nanos), inFlight, failed);
  }

  /** The store's recent write time of a slice, in milliseconds, as the window judges it. */
  double latencyMillis() {
    return limit.getLastRtt(TimeUnit.MICROSECONDS) / 1000.0;
  }
}
