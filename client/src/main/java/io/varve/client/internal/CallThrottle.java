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
 * server did its work.
 *
 * <p>A call's slot is given back before its caller learns that it ended: a caller that makes its
 * next call as soon as one ends finds the slot free. Thread safe.
 */
public final class CallThrottle {

  /** One admitted call: waiting for a slot, holding one, or neither (refused, or ended). */
  private static final class Ticket {
    final CompletableFuture<?> call;
    final Runnable start;
    boolean holding; // guarded by the throttle

    Ticket(CompletableFuture<?> call, Runnable start) {
      this.call = call;
      this.start = start;
    }
  }

  /** What {@link #admit} did with a call. */
  private enum Admitted {
    NOW,
    WAITING,
    REFUSED,
    CLOSED
  }

  private final int maxInFlight;
  private final int maxQueued;
  private final Executor starter;
  private final Counters counters;
  private final ArrayDeque<Ticket> queue = new ArrayDeque<>();
  private int inFlight;
  private boolean closed;

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
   * Runs {@code start} now when a slot is free, later when one frees, or fails {@code call} at once
   * when the queue is full. The slot is held until {@code call} completes.
   *
   * @return what the caller sees of {@code call}: completed as {@code call} is, once its slot or
   *     its place in the queue is given back; cancelling it cancels {@code call}
   */
  <R> CompletableFuture<R> admit(CompletableFuture<R> call, Runnable start) {
    Ticket ticket = new Ticket(call, start);
    Admitted admitted;
    synchronized (this) {
      if (closed) {
        admitted = Admitted.CLOSED;
      } else if (inFlight < maxInFlight) {
        inFlight++;
        ticket.holding = true;
        admitted = Admitted.NOW;
      } else if (queue.size() < maxQueued) {
        queue.add(ticket);
        admitted = Admitted.WAITING;
      } else {
        admitted = Admitted.REFUSED;
      }
    }
    CompletableFuture<R> seen = new CompletableFuture<>();
    call.whenComplete(
        (r, t) -> {
          end(ticket);
          if (t == null) {
            seen.complete(r);
          } else {
            seen.completeExceptionally(t);
          }
        });
    seen.whenComplete(
        (r, t) -> {
          if (seen.isCancelled()) {
            call.cancel(false);
          }
        });
    switch (admitted) {
      case NOW -> start.run();
      case WAITING -> {}
      case REFUSED -> {
        counters.throttled.increment();
        call.completeExceptionally(refusal());
      }
      case CLOSED -> call.completeExceptionally(closed());
    }
    return seen;
  }

  private StatusRuntimeException refusal() {
    return Status.RESOURCE_EXHAUSTED
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
        .asRuntimeException();
  }

  /** A call ended: it gives back its slot (to the first call still waiting) or its place. */
  private void end(Ticket ticket) {
    Ticket next;
    synchronized (this) {
      if (!ticket.holding) {
        queue.remove(ticket);
        return;
      }
      ticket.holding = false;
      do {
        next = queue.poll();
      } while (next != null && next.call.isDone());
      if (next == null) {
        inFlight--;
        return;
      }
      next.holding = true;
    }
    try {
      starter.execute(next.start);
    } catch (RejectedExecutionException e) {
      next.call.completeExceptionally(closed());
    }
  }

  /** Fails the waiting calls and every call made from now on: the client is closed. */
  void close() {
    List<Ticket> waiting;
    synchronized (this) {
      closed = true;
      waiting = new ArrayList<>(queue);
      queue.clear();
    }
    waiting.forEach(w -> w.call.completeExceptionally(closed()));
  }

  private static StatusRuntimeException closed() {
    return Status.CANCELLED.withDescription("the client is closed; not sent").asRuntimeException();
  }

  /** Calls started and not ended, calls waiting (some of them may have ended while waiting). */
  synchronized int[] load() {
    return new int[] {inFlight, queue.size()};
  }
}
