package io.varve.client.internal;

import java.time.Duration;
import java.util.List;
import java.util.PriorityQueue;
import java.util.concurrent.AbstractExecutorService;
import java.util.concurrent.Callable;
import java.util.concurrent.Delayed;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A scheduler whose time moves only when a test calls {@link #advance}: tasks run on the test's
 * thread, in the order they fall due, so that a test can stop between any two of them.
 */
final class ManualScheduler extends AbstractExecutorService implements ScheduledExecutorService {

  private final PriorityQueue<Task> tasks = new PriorityQueue<>();
  private long now = 1_000_000_000L;
  private long sequence;

  /** The scheduler's clock, in nanoseconds. */
  long nanoTime() {
    return now;
  }

  /** Moves time on by {@code by}, running every task that falls due on the way. */
  void advance(Duration by) {
    long until = now + by.toNanos();
    while (!tasks.isEmpty() && tasks.peek().due <= until) {
      Task task = tasks.poll();
      now = Math.max(now, task.due);
      if (!task.cancelled) {
        task.done = true;
        task.action.run();
      }
    }
    now = until;
  }

  /** Tasks scheduled and neither run nor cancelled. */
  long pending() {
    return tasks.stream().filter(t -> !t.cancelled).count();
  }

  @Override
  public ScheduledFuture<?> schedule(Runnable action, long delay, TimeUnit unit) {
    Task task = new Task(now + Math.max(0, unit.toNanos(delay)), sequence++, action);
    tasks.add(task);
    return task;
  }

  @Override
  public void execute(Runnable action) {
    schedule(action, 0, TimeUnit.NANOSECONDS);
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

  private final class Task implements ScheduledFuture<Object> {
    final long due;
    final long order;
    final Runnable action;
    boolean cancelled;
    boolean done;

    Task(long due, long order, Runnable action) {
      this.due = due;
      this.order = order;
      this.action = action;
    }

    @Override
    public long getDelay(TimeUnit unit) {
      return unit.convert(due - now, TimeUnit.NANOSECONDS);
    }

    @Override
    public int compareTo(Delayed other) {
      Task o = (Task) other;
      return due != o.due ? Long.compare(due, o.due) : Long.compare(order, o.order);
    }

    @Override
    public boolean cancel(boolean mayInterrupt) {
      if (done || cancelled) {
        return false;
      }
      cancelled = true;
      return true;
    }

    @Override
    public boolean isCancelled() {
      return cancelled;
    }

    @Override
    public boolean isDone() {
      return done || cancelled;
    }

    @Override
    public Object get() {
      throw new UnsupportedOperationException();
    }

    @Override
    public Object get(long timeout, TimeUnit unit) {
      throw new UnsupportedOperationException();
    }
  }
}
