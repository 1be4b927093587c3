package io.varve.server.admission;

import java.time.Duration;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where large request bodies are decoded: one thread per core, first come first served. However
 * many megabyte writes are admitted, the CPU they take from small requests (a read, a control-plane
 * call) is bounded by this pool's size, not by their number. Admitted bodies wait here in order;
 * {@link #oldestWait()} tells admission how long the oldest has waited, so that writes are refused
 * at once when the queue, not only Cassandra, falls behind.
 */
public final class DecodeQueue implements Executor, AutoCloseable {

  private final ThreadPoolExecutor pool;

  /** A task and when it was queued. */
  private record Queued(long queuedNanos, Runnable task) implements Runnable {
    @Override
    public void run() {
      task.run();
    }
  }

  /** A queue with {@code threads} decoding threads (at least one). */
  public DecodeQueue(int threads) {
    AtomicInteger count = new AtomicInteger();
    ThreadFactory factory =
        runnable -> {
          Thread thread = new Thread(runnable, "varve-decode-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    int size = Math.max(1, threads);
    pool =
        new ThreadPoolExecutor(
            size, size, 0, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), factory);
  }

  /** A queue with one decoding thread per core, and at least two. */
  public static DecodeQueue perCore() {
    return new DecodeQueue(Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  @Override
  public void execute(Runnable task) {
    pool.execute(new Queued(System.nanoTime(), task));
  }

  /**
   * How long the oldest body still waiting for a decoding thread has waited; zero when none waits.
   */
  public Duration oldestWait() {
    Runnable head = pool.getQueue().peek();
    return head instanceof Queued queued
        ? Duration.ofNanos(Math.max(0, System.nanoTime() - queued.queuedNanos()))
        : Duration.ZERO;
  }

  /** Bodies waiting for a decoding thread. */
  public int waiting() {
    return pool.getQueue().size();
  }

  /** Lets queued bodies be decoded, accepts no more. */
  @Override
  public void close() {
    pool.shutdown();
  }
}
