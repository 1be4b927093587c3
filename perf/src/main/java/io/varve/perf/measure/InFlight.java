package io.varve.perf.measure;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.function.Function;

/**
 * Sends asynchronous requests with a fixed number in flight: the in-flight budget both sides of a
 * throughput comparison get, so that neither wins by queueing more work.
 */
public final class InFlight {

  private InFlight() {}

  /**
   * Sends a request per element of {@code work}, at most {@code concurrency} unanswered at a time,
   * and waits for the last answer; returns the elapsed seconds. A failed request fails the run
   * (after the ones in flight answered).
   */
  public static <T> double send(
      int concurrency, Iterator<T> work, Function<T, CompletionStage<?>> request)
      throws InterruptedException {
    Semaphore permits = new Semaphore(concurrency);
    List<CompletableFuture<?>> all = new ArrayList<>();
    long start = System.nanoTime();
    while (work.hasNext()) {
      T next = work.next();
      permits.acquire();
      all.add(request.apply(next).whenComplete((r, e) -> permits.release()).toCompletableFuture());
    }
    CompletableFuture.allOf(all.toArray(CompletableFuture[]::new)).join();
    return (System.nanoTime() - start) / 1e9;
  }
}
