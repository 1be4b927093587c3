package io.varve.core.read;

/**
 * Adaptive fan-out of reads: how many partitions one read scans in parallel. Starts at the
 * configured default; after each read it learns how many partitions the read actually needed (an
 * exponentially weighted mean). Dense data (pages filled by the first bucket) brings the fan-out
 * down to one time bucket's worth of partitions, cutting read amplification; sparse data raises it
 * up to the maximum. Thread-safe; one instance per namespace.
 */
public final class FanoutController {

  private final int initial;
  private final int max;
  private volatile double meanUsed;

  public FanoutController(int initial, int max) {
    if (initial < 1 || max < initial) {
      throw new IllegalArgumentException("fan-out: initial " + initial + ", max " + max);
    }
    this.initial = initial;
    this.max = max;
    this.meanUsed = initial;
  }

  /** Partitions to keep in flight for a read whose buckets have {@code eventBuckets} partitions. */
  public int window(int eventBuckets) {
    // the mean nears a steady count from above without reaching it in floating point; without the
    // tolerance, reads that always need 4 partitions would keep a window of 5
    int learned = (int) Math.ceil(meanUsed - 1e-6);
    return Math.min(max, Math.max(learned, Math.min(eventBuckets, max)));
  }

  /** Records that a read needed the results of {@code used} partitions. */
  public void record(int used) {
    meanUsed = 0.8 * meanUsed + 0.2 * Math.max(1, used);
  }

  public int initial() {
    return initial;
  }
}
