package io.varve.core.read;

import io.varve.core.slo.ReadDeadline;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The time one read may take (its {@link ReadDeadline}) and the storage fetches it has in flight,
 * which may be several at once: the partitions of a scatter-gather, the events of a search page.
 *
 * <p>A fetch asks {@link #mayFetch} before it starts and hands its future to {@link #track}. When
 * the read ends early, {@link #stop} cancels every fetch still in flight and refuses later ones:
 * the read was cut at its deadline, or {@link #cancel} was called because its caller gave up. The
 * read learns that its deadline passed from {@link #whenExpired}, and asks {@link #allowsAnother}
 * before each fetch whether one as long as the slowest so far would still end in time.
 *
 * <p>Thread-safe: the storage driver's threads, the timers and the caller's cancellation meet here.
 */
public final class ScanBudget extends CallBudget {

  /** No deadline: every fetch is allowed, nothing is tracked. */
  public static final ScanBudget NONE = new ScanBudget(null, () -> {});

  private final ReadDeadline deadline;
  private final Set<CompletableFuture<?>> inFlight = ConcurrentHashMap.newKeySet();
  private final CompletableFuture<Void> expiry = new CompletableFuture<>();
  private volatile boolean stopped;
  private volatile boolean cancelled;

  private ScanBudget(ReadDeadline deadline, Runnable onCancelledFetch) {
    super(onCancelledFetch);
    this.deadline = deadline;
  }

  /**
   * A budget ending at {@code deadline}, cancelled at the caller's deadline {@code callerNanos} (a
   * {@link System#nanoTime()} reading, {@link Long#MAX_VALUE} for none), its timers on {@code
   * timers}; {@code onCancelledFetch} runs for each fetch cancelled or refused (a metric counts
   * them). {@link #close} stops the timers.
   */
  public static ScanBudget of(
      ReadDeadline deadline,
      long callerNanos,
      ScheduledExecutorService timers,
      Runnable onCancelledFetch) {
    ScanBudget budget = new ScanBudget(deadline, onCancelledFetch);
    budget.startTimers(deadline, callerNanos, timers, () -> budget.expiry.complete(null));
    return budget;
  }

  /**
   * Runs {@code action} once the deadline has passed (at once if it has), on the timer's thread;
   * never for {@link #NONE}.
   */
  public void whenExpired(Runnable action) {
    expiry.thenRun(action);
  }

  /** Whether the deadline has passed. */
  public boolean expired() {
    return expiry.isDone();
  }

  /**
   * Whether a fetch started now, as long as the slowest so far, would end before the deadline; true
   * without a deadline.
   */
  public boolean allowsAnother() {
    return deadline == null || (!expiry.isDone() && deadline.allows(slowestNanos()));
  }

  /**
   * Whether a fetch may start: false once the read was stopped (the refusal counts as cancelled
   * work).
   */
  public boolean mayFetch() {
    if (stopped) {
      countCancelled();
      return false;
    }
    return true;
  }

  /**
   * Tracks a fetch the storage started: cancelling its future stops the driver's work on it
   * (retries, speculative executions, following pages). A fetch tracked after {@link #stop} is
   * cancelled at once.
   */
  public <T> CompletionStage<T> track(CompletionStage<T> fetch) {
    if (this == NONE) {
      return fetch;
    }
    CompletableFuture<T> f = fetch.toCompletableFuture();
    time(f);
    inFlight.add(f);
    f.whenComplete((v, e) -> inFlight.remove(f));
    if (stopped) { // stop() may have run between mayFetch and here
      cancelInFlight();
    }
    return f;
  }

  /** The read is over before its fetches: cancels those in flight and refuses later ones. */
  public void stop() {
    if (this == NONE) {
      return;
    }
    stopped = true;
    cancelInFlight();
  }

  @Override
  public void cancel() {
    if (this == NONE) {
      return;
    }
    cancelled = true;
    stop();
  }

  private void cancelInFlight() {
    for (CompletableFuture<?> f : inFlight) {
      if (f.cancel(true)) {
        countCancelled();
      }
    }
  }

  @Override
  public boolean cancelled() {
    return cancelled;
  }
}
