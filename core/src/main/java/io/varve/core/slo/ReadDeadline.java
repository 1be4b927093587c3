package io.varve.core.slo;

import java.time.Duration;
import java.util.function.LongSupplier;

/**
 * When a read must stop taking more work: the smaller of the request start plus the endpoint's
 * {@link LatencySlo#max()} and the caller's deadline, less a margin left for encoding and sending
 * the answer. Times are {@link System#nanoTime()} readings. Immutable and thread-safe.
 *
 * <p>A read asks {@link #allows} before each fetch, with how long a fetch has taken so far: it
 * stops when the fetch would end past the deadline, so the answer leaves before {@code max} rather
 * than after.
 */
public final class ReadDeadline {

  /** The least and most time kept for encoding and sending a page. */
  static final Duration MIN_MARGIN = Duration.ofMillis(1);

  static final Duration MAX_MARGIN = Duration.ofMillis(100);

  private final long end;
  private final LongSupplier clock;

  private ReadDeadline(long end, LongSupplier clock) {
    this.end = end;
    this.clock = clock;
  }

  /**
   * The deadline of a read started at {@code startNanos}.
   *
   * @param max the endpoint's latency max
   * @param callerNanos the caller's deadline as a {@code clock} reading, or {@link Long#MAX_VALUE}
   *     for none
   */
  public static ReadDeadline of(
      long startNanos, Duration max, long callerNanos, LongSupplier clock) {
    long window = Math.min(max.toNanos(), Math.max(0, callerNanos - startNanos));
    return new ReadDeadline(startNanos + window - margin(window), clock);
  }

  /** The time kept for the answer out of a window of {@code windowNanos}: a tenth, bounded. */
  static long margin(long windowNanos) {
    return Math.max(MIN_MARGIN.toNanos(), Math.min(MAX_MARGIN.toNanos(), windowNanos / 10));
  }

  /** Whether a fetch expected to take {@code expectedNanos} would end before the deadline. */
  public boolean allows(long expectedNanos) {
    return clock.getAsLong() + expectedNanos <= end;
  }

  /** Nanoseconds until the deadline; zero or less once it passed. */
  public long remainingNanos() {
    return end - clock.getAsLong();
  }
}
