package io.varve.cassandra.events;

import java.util.ArrayDeque;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Bounds the number of asynchronous operations in flight without blocking a thread: operations
 * over the bound wait in a queue and start when earlier ones complete. Thread-safe.
 *
 * <p>The queue itself has no bound and no timeout: a caller must bound what it submits. The
 * server does so at admission (a write request is admitted only while the bytes of the write
 * requests in flight fit a budget), so the queue holds at most the batches of admitted requests.
 */
public final class AsyncLimiter {

  private final int maxInFlight;
  private final Queue<Runnable> waiting = new ArrayDeque<>();
  private int inFlight;

  public AsyncLimiter(int maxInFlight) {
    this.maxInFlight = maxInFlight;
  }

  public <T> CompletionStage<T> submit(Supplier<CompletionStage<T>> operation) {
    CompletableFuture<T> result = new CompletableFuture<>();
    Runnable start = () -> {
      CompletionStage<T> stage;
      try {
        stage = operation.get();
      } catch (RuntimeException e) {
        stage = CompletableFuture.failedFuture(e);
      }
      stage.whenComplete((value, error) -> {
        release();
        if (error != null) {
          result.completeExceptionally(error);
        } else {
          result.complete(value);
        }
      });
    };
    boolean now;
    synchronized (this) {
      now = inFlight < maxInFlight;
      if (now) {
        inFlight++;
      } else {
        waiting.add(start);
      }
    }
    if (now) {
      start.run();
    }
    return result;
  }

  private void release() {
    Runnable next;
    synchronized (this) {
      next = waiting.poll();
      if (next == null) {
        inFlight--;
      }
    }
    if (next != null) {
      next.run();
    }
  }

  public synchronized int inFlight() {
    return inFlight;
  }

  /** Operations waiting for a slot. */
  public synchronized int waiting() {
    return waiting.size();
  }
}
