package io.varve.core.kv;

import io.varve.core.read.CallBudget;
import io.varve.core.slo.ReadDeadline;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The time one page read may take, and its outstanding CQL fetch. A read asks {@link #mayFetch}
 * before each fetch: once it has at least one item, it stops when the next fetch (as long as the
 * slowest so far) would end past its {@link ReadDeadline}, and a timer at the deadline cancels the
 * fetch in flight, so the page leaves with what it has ({@link #cutShort()}). A read without items
 * yet goes on, so every page makes progress. {@link #cancel()} (the caller gave up: its deadline
 * passed or it cancelled) cancels the fetch in flight and refuses every later one, items or not.
 * Thread-safe: the driver's threads, the timer and the caller's cancellation meet here.
 */
public final class ReadBudget extends CallBudget {

  /** No deadline: every fetch is allowed. */
  public static final ReadBudget NONE = new ReadBudget(null, () -> {});

  private final ReadDeadline deadline;
  private final AtomicReference<CompletableFuture<?>> inFlight = new AtomicReference<>();
  private volatile boolean progress;
  private volatile boolean expired;
  private volatile boolean cut;
  private volatile boolean cancelled;

  private ReadBudget(ReadDeadline deadline, Runnable onCancelledFetch) {
    super(onCancelledFetch);
    this.deadline = deadline;
  }

  /**
   * A budget ending at {@code deadline}, cancelled at the caller's deadline {@code callerNanos} (a
   * {@link System#nanoTime()} reading, {@link Long#MAX_VALUE} for none), its timers on {@code
   * timers}; {@code onCancelledFetch} runs for each fetch cancelled or refused because the caller
   * gave up (a metric counts them). {@link #close} stops the timers.
   */
  public static ReadBudget of(
      ReadDeadline deadline,
      long callerNanos,
      ScheduledExecutorService timers,
      Runnable onCancelledFetch) {
    ReadBudget budget = new ReadBudget(deadline, onCancelledFetch);
    budget.startTimers(deadline, callerNanos, timers, budget::expire);
    return budget;
  }

  /** Records that the read took an item: from now on, time may cut it short. */
  public void progressed() {
    if (!progress) { // called for every item: a volatile write each time would cost a fence
      progress = true;
    }
  }

  /** Whether the read may start another fetch; a refusal for time makes the page partial. */
  public boolean mayFetch() {
    if (cancelled) {
      countCancelled();
      return false;
    }
    if (deadline == null || !progress) {
      return true;
    }
    if (expired || !deadline.allows(slowestNanos())) {
      cut = true;
      return false;
    }
    return true;
  }

  /**
   * Tracks a fetch the driver started: cancelling its future stops the driver's work on it
   * (retries, speculative executions, following pages).
   */
  public <T> CompletionStage<T> track(CompletionStage<T> fetch) {
    if (this == NONE) {
      return fetch;
    }
    CompletableFuture<T> f = fetch.toCompletableFuture();
    time(f);
    inFlight.set(f);
    // the timer or the caller may have acted between mayFetch and here
    if (cancelled) {
      cancel();
    } else if (expired) {
      expire();
    }
    return f;
  }

  private void expire() {
    expired = true;
    CompletableFuture<?> f = inFlight.get();
    if (progress && f != null && !f.isDone()) {
      cut = true; // before cancelling: the fetch's dependents run within cancel() and ask
      f.cancel(true);
    }
  }

  /** The caller gave up: cancels the fetch in flight and refuses every later one. */
  @Override
  public void cancel() {
    if (this == NONE) {
      return;
    }
    cancelled = true;
    CompletableFuture<?> f = inFlight.get();
    if (f != null && !f.isDone() && f.cancel(true)) {
      countCancelled();
    }
  }

  /** Whether time stopped the read before its page was full: the page is partial. */
  public boolean cutShort() {
    return cut && !cancelled;
  }

  @Override
  public boolean cancelled() {
    return cancelled;
  }
}
