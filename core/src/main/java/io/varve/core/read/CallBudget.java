package io.varve.core.read;

import io.varve.core.slo.ReadDeadline;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The time budget of one read call, as the server that started it sees it: it can be cancelled when
 * the caller gives up, tells whether it was, and is closed when the call ends. {@link ScanBudget}
 * (TimeSeries reads, several fetches in flight) and the KeyValue page reads' budget (one fetch in
 * flight) extend it; what they share is here: the two timers (the read's deadline, the caller's),
 * the slowest fetch so far, and the count of fetches cancelled or refused. Thread-safe.
 */
public abstract class CallBudget {

  private final Runnable onCancelledFetch;
  private final AtomicInteger cancelledFetches = new AtomicInteger();
  private volatile ScheduledFuture<?> timer;
  private volatile ScheduledFuture<?> callerTimer;
  private volatile long callerNanos = Long.MAX_VALUE;
  private volatile long slowestNanos;

  /** {@code onCancelledFetch} runs for each fetch cancelled or refused (a metric counts them). */
  protected CallBudget(Runnable onCancelledFetch) {
    this.onCancelledFetch = onCancelledFetch;
  }

  /**
   * Starts the timers: {@code onExpiry} at {@code deadline}, {@link #cancel} at the caller's
   * deadline {@code callerNanos} (a {@link System#nanoTime()} reading, {@link Long#MAX_VALUE} for
   * none), on {@code timers}. Called once, by the factory, before the budget is handed out.
   */
  protected final void startTimers(
      ReadDeadline deadline, long callerNanos, ScheduledExecutorService timers, Runnable onExpiry) {
    this.callerNanos = callerNanos;
    timer = timers.schedule(onExpiry, Math.max(0, deadline.remainingNanos()), TimeUnit.NANOSECONDS);
    if (callerNanos != Long.MAX_VALUE) {
      callerTimer =
          timers.schedule(
              this::cancel, Math.max(0, callerNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
    }
  }

  /** Times {@code fetch}, started now: the slowest fetch so far bounds the next one's start. */
  protected final void time(CompletableFuture<?> fetch) {
    long start = System.nanoTime();
    fetch.whenComplete((v, e) -> slowestNanos = Math.max(slowestNanos, System.nanoTime() - start));
  }

  /** How long the slowest fetch so far took, in nanoseconds; 0 before any ended. */
  protected final long slowestNanos() {
    return slowestNanos;
  }

  /** Counts a fetch cancelled in flight or refused. */
  protected final void countCancelled() {
    cancelledFetches.incrementAndGet();
    onCancelledFetch.run();
  }

  /** Fetches cancelled in flight or refused because the read was stopped. */
  public final int cancelledFetches() {
    return cancelledFetches.get();
  }

  /** The caller gave up (its deadline passed, or it cancelled): stops the read. */
  public abstract void cancel();

  /** Whether the caller gave up. */
  public abstract boolean cancelled();

  /**
   * Whether the caller's deadline has passed: a call stopped then ends as past its deadline, not as
   * cancelled by its caller.
   */
  public final boolean pastCallerDeadline() {
    return callerNanos != Long.MAX_VALUE && System.nanoTime() - callerNanos >= 0;
  }

  /** Stops the budget's timers; the call is over. */
  public final void close() {
    for (ScheduledFuture<?> t : new ScheduledFuture<?>[] {timer, callerTimer}) {
      if (t != null) {
        t.cancel(false);
      }
    }
  }
}
