package io.varve.cassandra.kv;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Timers that fire when the test says so, not when time passes: a {@link ScheduledExecutorService}
 * whose one-shot tasks run on {@link #fire}, on the test's thread.
 */
final class ManualTimers extends AbstractExecutorService implements ScheduledExecutorService {

  private final List<Timer> timers = new ArrayList<>();

  /** Runs every task scheduled and not cancelled, once. */
  void fire() {
    for (Timer t : List.copyOf(timers)) {
      t.run();
    }
  }

  /** Tasks scheduled and neither run nor cancelled. */
  long pending() {
    return timers.stream().filter(t -> !t.isDone()).count();
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable task, long delay, TimeUnit unit) {
    Timer t = new Timer(task, unit.toNanos(delay));
    timers.add(t);
    return t;
  }

  @Override
  public <V> ScheduledFuture<V> schedule(Callable<V> callable, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ScheduledFuture<?> scheduleAtFixedRate(
      Runnable command, long initialDelay, long period, TimeUnit unit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public ScheduledFuture<?> scheduleWithFixedDelay(
      Runnable command, long initialDelay, long delay, TimeUnit unit) {
    throw new UnsupportedOperationException();
  }

  @Override
  public void execute(Runnable command) {
    throw new UnsupportedOperationException("only timers");
  }

  @Override
  public void shutdown() {}

  @Override
  public List<Runnable> shutdownNow() {
    return List.of();
  }

  @Override
  public boolean isShutdown() {
    return false;
  }

  @Override
  public boolean isTerminated() {
    return false;
  }

  @Override
  public boolean awaitTermination(long timeout, TimeUnit unit) {
    return true;
  }

  private static final class Timer implements ScheduledFuture<Object> {
    private final Runnable task;
    private final long delayNanos;
    private boolean done;
    private boolean cancelled;

    Timer(Runnable task, long delayNanos) {
      this.task = task;
      this.delayNanos = delayNanos;
    }

    void run() {
      if (!done) {
        done = true;
        task.run();
      }
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(delayNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      return Long.compare(delayNanos, other.getDelay(TimeUnit.NANOSECONDS));
    }

    @Override
    public boolean cancel(boolean mayInterruptIfRunning) {
      if (done) {
        return false;
      }
      done = true;
      cancelled = true;
      return true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return done;
    }

    @Override
    public Object get() {
      return null;
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      return null;
    }
  }
}
