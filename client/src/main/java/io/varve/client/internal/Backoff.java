package io.varve.client.internal;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with full jitter: the wait before retry {@code n} (from 1) is drawn uniformly
 * from [0, min(max, initial × 2^(n-1))], so callers refused together do not come back together.
 *
 * @param initial the bound of the first wait
 * @param max the largest bound
 * @param maxRetries how many times a call is sent again at most
 */
public record Backoff(Duration initial, Duration max, int maxRetries) {

  /** Checks the bounds. */
  public Backoff {
    if (initial.isNegative() || max.compareTo(initial) < 0 || maxRetries < 0) {
      throw new IllegalArgumentException(
          "backoff: initial "
              + initial
              + ", max "
              + max
              + ", retries "
              + maxRetries
              + " (expected: 0 <= initial <= max, retries >= 0)");
    }
  }

  /** The wait before retry {@code retry} (1 for the first), in nanoseconds. */
  public long delayNanos(int retry) {
    long bound = initial.toNanos();
    for (int i = 1; i < retry && bound < max.toNanos(); i++) {
      bound *= 2;
    }
    bound = Math.min(bound, max.toNanos());
    return bound == 0 ? 0 : ThreadLocalRandom.current().nextLong(bound + 1);
  }
}
