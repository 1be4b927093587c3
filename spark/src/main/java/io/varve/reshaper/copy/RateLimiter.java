package io.varve.reshaper.copy;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Spreads permits evenly over time: {@code acquire(n)} returns once the caller's share of the
 * rate allows {@code n} more. A rate of 0 or less never waits. Thread-safe.
 */
final class RateLimiter {
  private final double nanosPerPermit;
  private long nextFree = System.nanoTime();

  RateLimiter(double permitsPerSecond) {
    this.nanosPerPermit = permitsPerSecond > 0 ? TimeUnit.SECONDS.toNanos(1) / permitsPerSecond : 0;
  }

  void acquire(double permits) {
    if (nanosPerPermit == 0) {
      return;
    }
    long wait;
    synchronized (this) {
      long now = System.nanoTime();
      // At most one second of unused rate is carried over, so a pause is not followed by a burst.
      nextFree = Math.max(nextFree, now - TimeUnit.SECONDS.toNanos(1));
      nextFree += (long) (permits * nanosPerPermit);
      wait = nextFree - now;
    }
    if (wait > 0) {
      LockSupport.parkNanos(wait);
    }
  }
}
