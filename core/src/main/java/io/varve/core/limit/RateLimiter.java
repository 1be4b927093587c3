package io.varve.core.limit;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;

/**
 * Spreads permits evenly over time: {@code acquire(n)} returns once the caller's share of the rate
 * allows {@code n} more, blocking the calling thread. A rate of 0 or less never waits. Thread-safe.
 *
 * <p>A rate, not a {@link Bound}: it limits how fast work starts, not how much is in flight, so it
 * has nothing to hold and give back.
 */
public final class RateLimiter {
  private static final long CARRY_OVER = TimeUnit.SECONDS.toNanos(1);
  private final double nanosPerPermit;
  private final LongSupplier clock;
  private final LongConsumer sleeper;
  private long nextFree;

  /** A limiter on the JVM's monotonic clock that parks the calling thread. */
  public RateLimiter(double permitsPerSecond) {
    this(permitsPerSecond, System::nanoTime, LockSupport::parkNanos);
  }

  /**
   * @param clock nanoseconds of a monotonic clock
   * @param sleeper waits the given nanoseconds
   */
  public RateLimiter(double permitsPerSecond, LongSupplier clock, LongConsumer sleeper) {
    this.nanosPerPermit = permitsPerSecond > 0 ? TimeUnit.SECONDS.toNanos(1) / permitsPerSecond : 0;
    this.clock = clock;
    this.sleeper = sleeper;
    this.nextFree = clock.getAsLong();
  }

  /** Returns once {@code permits} more fit the rate (at once when the rate has room). */
  public void acquire(double permits) {
    if (nanosPerPermit == 0) {
      return;
    }
    long wait;
    synchronized (this) {
      long now = clock.getAsLong();
      // At most one second of unused rate is carried over, so a pause is not followed by a burst.
      nextFree = Math.max(nextFree, now - CARRY_OVER);
      nextFree += (long) (permits * nanosPerPermit);
      wait = nextFree - now;
    }
    if (wait > 0) {
      sleeper.accept(wait);
    }
  }
}
