package io.varve.client.internal;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;

/**
 * The client's bound on calls in flight: at most {@code maxInFlight} calls started and not ended,
 * at most {@code maxQueued} more waiting in arrival order for one of them to end; a call beyond
 * both fails at once with RESOURCE_EXHAUSTED. A waiting call keeps its deadline (it runs from when
 * the call was made) and is dropped from the queue, never sent, once it has ended (its deadline
 * passed, or its caller cancelled it). A call's hedge and retries belong to it: they take no slot
 * of their own. Without a bound, a caller that starts calls faster than the servers answer builds a
 * queue of requests on the connections that it cannot see, whose tail passes its deadline after the
 * server did its work. Thread safe.
 */
public final class CallThrottle {

  private record Waiting(CompletableFuture<?> result, Runnable start) {}

  private final int maxInFlight;
  private final int maxQueued;
  private final Executor starter;
  private final Counters counters;
  private final ArrayDeque<Waiting> queue = new ArrayDeque<>();
  private int inFlight;
  private volatile boolean closed;

  /**
   * @param starter where a waiting call starts once a slot is free (not on the thread of the call
   *     that freed it, which may be a transport's event loop)
   */
  public CallThrottle(int maxInFlight, int maxQueued, Executor starter, Counters counters) {
    this.maxInFlight = maxInFlight;
    this.maxQueued = maxQueued;
    this.starter = starter;
    this.counters = counters;
  }

  /**
   * Runs {@code start} now when a slot is free, later when one frees, or fails {@code result} at
   * once when the queue is full. The slot is held until {@code result} completes.
   */
  void admit(CompletableFuture<?> result, Runnable start) {
    boolean now;
    Waiting waiting = null;
    synchronized (this) {
      if (closed) {
        now = false;
      } else {
        now = inFlight < maxInFlight;
        if (now) {
          inFlight++;
        } else if (queue.size() < maxQueued) {
          waiting = new Waiting(result, start);
          queue.add(waiting);
        }
      }
    }
    if (waiting != null) {
      // a call that ends while it waits (its deadline, its caller) gives its place back at once
      Waiting left = waiting;
      result.whenComplete((r, t) -> leave(left));
      return;
    }
    if (closed && !now) {
      result.completeExceptionally(closed());
      return;
    }
    if (!now) {
      counters.throttled.increment();
      result.completeExceptionally(
          Status.RESOURCE_EXHAUSTED
              .withDescription(
                  "the client has "
                      + maxInFlight
                      + " calls in flight and "
                      + maxQueued
                      + " waiting (maxCallsInFlight: "
                      + maxInFlight
                      + ", "
                      + maxQueued
                      + "); not sent")
              .asRuntimeException());
      return;
    }
    result.whenComplete((r, t) -> release());
    start.run();
  }

  /** Hands the slot of an ended call to the first waiting call still waiting, or frees it. */
  private void release() {
    Waiting next;
    synchronized (this) {
      do {
        next = queue.poll();
      } while (next != null && next.result().isDone());
      if (next == null) {
        inFlight--;
        return;
      }
    }
    Waiting started = next;
    started.result().whenComplete((r, t) -> release());
    try {
      starter.execute(started.start());
    } catch (RejectedExecutionException e) {
      started.result().completeExceptionally(closed());
    }
  }

  private synchronized void leave(Waiting waiting) {
    queue.remove(waiting);
  }

  /** Fails the waiting calls and every call made from now on: the client is closed. */
  void close() {
    List<Waiting> waiting;
    synchronized (this) {
      closed = true;
      waiting = new ArrayList<>(queue);
      queue.clear();
    }
    waiting.forEach(w -> w.result().completeExceptionally(closed()));
  }

  private static StatusRuntimeException closed() {
    return Status.CANCELLED.withDescription("the client is closed; not sent").asRuntimeException();
  }

  /** Calls started and not ended, calls waiting (some of them may have ended while waiting). */
  synchronized int[] load() {
    return new int[] {inFlight, queue.size()};
  }
}
