package io.varve.server.admission;

import io.varve.core.limit.Bound;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A semaphore of bytes that never waits: a request takes a {@link Permit}, adds to it what it costs
 * as that becomes known (a declared body length at once, a streamed body chunk by chunk), and is
 * refused the moment the budget would be exceeded. Closing the permit gives everything it holds
 * back, once. Thread-safe.
 *
 * <p>A single request larger than the whole budget is not refused for ever: once what the other
 * requests hold is at most half the budget, it takes everything that is free, so it runs with those
 * already admitted and nothing else of the budget is admitted until it ends. Small requests in
 * flight (each holds at least a minimum) therefore never keep it out, and two such requests never
 * run at once.
 */
public final class ByteBudget implements Bound {

  private final String kind;
  private final long capacity;
  private final AtomicLong used = new AtomicLong();

  /**
   * A budget of {@code capacity} bytes for the requests of {@code kind} ({@code write}, {@code
   * read}), which names it in refusals and metrics.
   */
  public ByteBudget(String kind, long capacity) {
    if (capacity < 1) {
      throw new IllegalArgumentException("capacity " + capacity + " (expected: at least 1)");
    }
    this.kind = kind;
    this.capacity = capacity;
  }

  /** The requests it admits: {@code write} or {@code read}. */
  public String kind() {
    return kind;
  }

  /** {@code admission_} and its {@link #kind()}. */
  @Override
  public String name() {
    return "admission_" + kind;
  }

  @Override
  public Unit unit() {
    return Unit.BYTES;
  }

  @Override
  public long capacity() {
    return capacity;
  }

  /** Bytes held by open permits. */
  @Override
  public long inUse() {
    return used.get();
  }

  /** A permit holding nothing yet. */
  public Permit open() {
    return new Permit();
  }

  private boolean tryTake(long bytes) {
    while (true) {
      long now = used.get();
      if (now + bytes > capacity) {
        return false;
      }
      if (used.compareAndSet(now, now + bytes)) {
        return true;
      }
    }
  }

  /** What one request holds of the budget; close it when the request is over, however it ended. */
  public final class Permit implements AutoCloseable {

    private long held;
    private boolean closed;

    private Permit() {}

    /**
     * Adds {@code bytes} to what this permit holds, if the budget has room; false (and nothing
     * taken) otherwise, or when the permit is closed.
     */
    public synchronized boolean tryAdd(long bytes) {
      if (closed || bytes < 0) {
        return false;
      }
      if (bytes <= capacity - held) {
        if (!tryTake(bytes)) {
          return false;
        }
        held += bytes;
        return true;
      }
      // more than the whole budget, with what this permit holds already (see the class comment)
      while (true) {
        long now = used.get();
        if (now - held > capacity / 2) {
          return false;
        }
        if (used.compareAndSet(now, Math.max(now, capacity))) {
          held += Math.max(0, capacity - now);
          return true;
        }
      }
    }

    /** Bytes this permit holds. */
    public synchronized long held() {
      return held;
    }

    /** Gives back everything held; later calls do nothing. */
    @Override
    public synchronized void close() {
      if (!closed) {
        closed = true;
        used.addAndGet(-held);
        held = 0;
      }
    }
  }
}
