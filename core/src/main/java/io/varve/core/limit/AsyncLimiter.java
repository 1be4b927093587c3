package io.varve.core.limit;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Bounds the asynchronous operations in flight, in number and in bytes, without blocking a thread:
 * operations over either bound wait in a queue and start, in order, when earlier ones complete.
 * Thread-safe.
 *
 * <p>The byte bound is what protects the nodes: a count alone lets large batches add up to more
 * than a node's heap takes in at once. An operation larger than the byte bound on its own still
 * runs, alone, so that no operation waits forever.
 *
 * <p>The queue itself has no bound and no timeout: a caller must bound what it submits. The server
 * does so at admission (a write request is admitted only while the bytes of the write requests in
 * flight fit a budget), so the queue holds at most the batches of admitted requests.
 */
public final class AsyncLimiter {

  private record Waiting(long bytes, long sinceNanos, Runnable start) {}

  private static final ThreadLocal<ArrayDeque<Runnable>> RUNNING = new ThreadLocal<>();

  private final String name;
  private final int maxInFlight;
  private final long maxInFlightBytes;
  private final LongSupplier nanoTime;
  private final List<Bound> bounds;
  private final Queue<Waiting> waiting = new ArrayDeque<>();
  private int inFlight;
  private long inFlightBytes;

  /** A limiter of the number of operations in flight only. */
  public AsyncLimiter(String name, int maxInFlight) {
    this(name, maxInFlight, Long.MAX_VALUE);
  }

  /**
   * @param name what its {@link #bounds()} are called: lower case with underscores
   * @param maxInFlight operations in flight at once, at least 1
   * @param maxInFlightBytes bytes of the operations in flight at once, at least 1
   */
  public AsyncLimiter(String name, int maxInFlight, long maxInFlightBytes) {
    this(name, maxInFlight, maxInFlightBytes, System::nanoTime);
  }

  AsyncLimiter(String name, int maxInFlight, long maxInFlightBytes, LongSupplier nanoTime) {
    if (maxInFlight < 1 || maxInFlightBytes < 1) {
      throw new IllegalArgumentException(
          "maxInFlight and maxInFlightBytes must be positive: "
              + maxInFlight
              + ", "
              + maxInFlightBytes);
    }
    this.name = name;
    this.maxInFlight = maxInFlight;
    this.maxInFlightBytes = maxInFlightBytes;
    this.nanoTime = nanoTime;
    Bound calls = new View(Bound.Unit.CALLS, maxInFlight, this::inFlight);
    this.bounds =
        maxInFlightBytes == Long.MAX_VALUE
            ? List.of(calls)
            : List.of(calls, new View(Bound.Unit.BYTES, maxInFlightBytes, this::inFlightBytes));
  }

  public String name() {
    return name;
  }

  /**
   * Its two bounds, operations ({@link Bound.Unit#CALLS}) and their bytes ({@link
   * Bound.Unit#BYTES}), both named {@link #name()}; the bytes bound only when it was given one.
   */
  public List<Bound> bounds() {
    return bounds;
  }

  private final class View implements Bound {
    private final Unit unit;
    private final long capacity;
    private final LongSupplier inUse;

    View(Unit unit, long capacity, LongSupplier inUse) {
      this.unit = unit;
      this.capacity = capacity;
      this.inUse = inUse;
    }

    @Override
    public String name() {
      return name;
    }

    @Override
    public Unit unit() {
      return unit;
    }

    @Override
    public long capacity() {
      return capacity;
    }

    @Override
    public long inUse() {
      return inUse.getAsLong();
    }
  }

  /** Starts {@code operation}, counted as holding no bytes, now if it fits, later otherwise. */
  public <T> CompletionStage<T> submit(Supplier<CompletionStage<T>> operation) {
    return submit(0, operation);
  }

  /**
   * Starts {@code operation} now if it fits, later otherwise.
   *
   * @param bytes what the operation holds while in flight (its request size, about)
   * @return the operation's outcome, once it has run
   */
  public <T> CompletionStage<T> submit(long bytes, Supplier<CompletionStage<T>> operation) {
    long weight = Math.max(0, bytes);
    CompletableFuture<T> result = new CompletableFuture<>();
    Runnable start =
        () -> {
          CompletionStage<T> stage;
          try {
            stage = operation.get();
          } catch (RuntimeException e) {
            stage = CompletableFuture.failedFuture(e);
          }
          stage.whenComplete(
              (value, error) -> {
                release(weight);
                if (error != null) {
                  result.completeExceptionally(error);
                } else {
                  result.complete(value);
                }
              });
        };
    boolean now;
    synchronized (this) {
      // first in, first out: a large operation is not overtaken forever by small ones
      now = waiting.isEmpty() && fits(weight);
      if (now) {
        take(weight);
      } else {
        waiting.add(new Waiting(weight, nanoTime.getAsLong(), start));
      }
    }
    if (now) {
      runAll(List.of(start));
    }
    return result;
  }

  private boolean fits(long bytes) {
    return inFlight < maxInFlight && (inFlight == 0 || inFlightBytes + bytes <= maxInFlightBytes);
  }

  private void take(long bytes) {
    inFlight++;
    inFlightBytes += bytes;
  }

  private void release(long bytes) {
    List<Runnable> next = new ArrayList<>();
    synchronized (this) {
      inFlight--;
      inFlightBytes -= bytes;
      while (!waiting.isEmpty() && fits(waiting.peek().bytes())) {
        Waiting w = waiting.poll();
        take(w.bytes());
        next.add(w.start());
      }
    }
    runAll(next);
  }

  /**
   * Runs operations one after another in a loop rather than nested: an operation that fails at once
   * releases its slot and starts the next from inside its own start, which with a long queue (every
   * node down) would otherwise nest as deep as the queue is long.
   */
  private static void runAll(List<Runnable> starts) {
    ArrayDeque<Runnable> running = RUNNING.get();
    if (running != null) {
      running.addAll(starts);
      return;
    }
    running = new ArrayDeque<>(starts);
    RUNNING.set(running);
    try {
      for (Runnable r = running.poll(); r != null; r = running.poll()) {
        r.run();
      }
    } finally {
      RUNNING.remove();
    }
  }

  public synchronized int inFlight() {
    return inFlight;
  }

  /** Bytes of the operations in flight. */
  public synchronized long inFlightBytes() {
    return inFlightBytes;
  }

  /**
   * How long the oldest waiting operation has waited, in nanoseconds; 0 when none waits. What a new
   * operation would wait, about, when the operations ahead of it drain at the same pace.
   */
  public synchronized long oldestWaitNanos() {
    Waiting oldest = waiting.peek();
    return oldest == null ? 0 : Math.max(0, nanoTime.getAsLong() - oldest.sinceNanos());
  }

  /** Operations waiting for their turn. */
  public synchronized int waiting() {
    return waiting.size();
  }
}
