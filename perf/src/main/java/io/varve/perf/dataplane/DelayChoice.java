package io.varve.perf.dataplane;

import java.time.Duration;
import java.util.random.RandomGenerator;

/**
 * Which reads of the {@link DelayProxy} are held back, and for how long: each with probability
 * {@code share}, by a delay drawn uniformly from [{@code min}, {@code max}].
 *
 * @param share the probability that a read is delayed, 0..1
 * @param min the shortest delay
 * @param max the longest delay, at least {@code min}
 */
record DelayChoice(double share, Duration min, Duration max) {

  DelayChoice {
    if (!(share >= 0 && share <= 1)) {
      throw new IllegalArgumentException("share: " + share + " (expected: 0..1)");
    }
    if (min.isNegative() || max.compareTo(min) < 0) {
      throw new IllegalArgumentException("delays: " + min + ".." + max);
    }
  }

  /** The delay of the next read: zero for most, a drawn one for the share. */
  Duration next(RandomGenerator random) {
    if (share == 0 || random.nextDouble() >= share) {
      return Duration.ZERO;
    }
    long span = max.toNanos() - min.toNanos();
    return min.plusNanos(span == 0 ? 0 : random.nextLong(span + 1));
  }
}
