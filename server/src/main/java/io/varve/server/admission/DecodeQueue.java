package io.varve.server.admission;

import java.time.Duration;
import java.util.concurrent.Delayed;
import java.util.concurrent.Executor;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Where write bodies (and large bodies of any RPC) are decoded and their calls started: one thread
 * per core, first come first served. A gRPC message arrives here parsed (the transport parses it on
 * the event loop); its call is validated and started here, a JSON body decoded as well. However
 * many writes are admitted, the CPU they take from small requests (a read, a control-plane call) is
 * bounded by this pool's size, not by their number. Admitted bodies wait here in order; {@link
 * #oldestWait()} tells admission how long the oldest has waited, so that writes are refused at once
 * when the server itself, not only Cassandra, falls behind: a write that would wait here past its
 * caller's deadline is refused instead of timed out.
 *
 * <p>The pool is a {@link ScheduledThreadPoolExecutor} so that the gRPC routes can use it as their
 * blocking task executor; every task runs as soon as a thread is free, and how overdue the head of
 * its queue is is how long it has waited.
 */
public final class DecodeQueue implements Executor, AutoCloseable {

  private final ScheduledThreadPoolExecutor pool;

  /** A queue with {@code threads} decoding threads (at least one). */
  public DecodeQueue(int threads) {
    AtomicInteger count = new AtomicInteger();
    ThreadFactory factory =
        runnable -> {
          Thread thread = new Thread(runnable, "varve-decode-" + count.incrementAndGet());
          thread.setDaemon(true);
          return thread;
        };
    pool = new ScheduledThreadPoolExecutor(Math.max(1, threads), factory);
    pool.setRemoveOnCancelPolicy(true);
  }

  /** A queue with one decoding thread per core, and at least two. */
  public static DecodeQueue perCore() {
    return new DecodeQueue(Math.max(2, Runtime.getRuntime().availableProcessors()));
  }

  @Override
  public void execute(Runnable task) {
    pool.execute(task);
  }

  /** This queue as an executor service, for the server's routes; closed by {@link #close}. */
  public ScheduledExecutorService executor() {
    return pool;
  }

  /**
   * How long the oldest body still waiting for a decoding thread has waited; zero when none waits.
   */
  public Duration oldestWait() {
    // a task queued to run now is due at its queueing time: its negative delay is its wait
    return pool.getQueue().peek() instanceof Delayed head
        ? Duration.ofNanos(Math.max(0, -head.getDelay(TimeUnit.NANOSECONDS)))
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
