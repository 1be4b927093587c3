package io.varve.server.request;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.error.VarveException;
import io.varve.core.read.CallBudget;
import io.varve.core.slo.LatencySlo;
import io.varve.core.slo.ReadDeadline;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Gives each call of a read endpoint (TimeSeries reads, searches and aggregations; KeyValue
 * GetItems and ScanItems) the time budget of the namespace's objectives and of its caller ({@link
 * RequestDeadline}): the read stops taking work at the smaller of the latency max and the caller's
 * deadline. When the caller gives up, the read's fetches in flight are cancelled and no other
 * starts. Counts pages cut short, fetches cancelled and calls running, under the {@link Meters}
 * given.
 */
public final class ReadBudgets {

  /**
   * Fires every budget's deadlines. Its tasks only stop reads: cancelling a fetch completes a page
   * here, a few microseconds.
   */
  private static final ScheduledThreadPoolExecutor TIMERS = timers();

  /**
   * Makes a budget ending at {@code deadline}, cancelled at the caller's deadline {@code
   * callerNanos}, its timers on {@code timers}; {@code onCancelledFetch} runs for each fetch it
   * cancels or refuses. {@code ScanBudget::of} and {@code ReadBudget::of} are such makers.
   */
  @FunctionalInterface
  public interface Maker<B extends CallBudget> {
    B make(
        ReadDeadline deadline,
        long callerNanos,
        ScheduledExecutorService timers,
        Runnable onCancelledFetch);
  }

  /**
   * The meters of one endpoint's budgets.
   *
   * @param partial the counter of pages cut short
   * @param cancelled the counter of fetches cancelled or refused
   * @param cancelledDescription what {@code cancelled} counts
   * @param running the gauge of calls running
   * @param runningDescription what {@code running} counts
   */
  public record Meters(
      String partial,
      String cancelled,
      String cancelledDescription,
      String running,
      String runningDescription) {

    /**
     * The meters {@code <prefix>.pages.partial}, {@code <prefix>.fetches.cancelled} (cut at the
     * latency max or the caller gave up) and {@code <prefix>.running} of endpoint {@code rpc}.
     */
    public static Meters of(String prefix, String rpc) {
      return new Meters(
          prefix + ".pages.partial",
          prefix + ".fetches.cancelled",
          "Fetches of "
              + rpc
              + " cancelled in flight or not started: the call was cut at its latency max"
              + " or its caller gave up",
          prefix + ".running",
          rpc + " calls running now");
    }
  }

  private final String rpc;
  private final Counter partial;
  private final Counter cancelled;
  private final AtomicInteger running = new AtomicInteger();

  /**
   * @param rpc the endpoints, in descriptions and in the error of a call its caller gave up
   */
  public ReadBudgets(MeterRegistry metrics, String rpc, Meters meters) {
    this.rpc = rpc;
    this.partial =
        Counter.builder(meters.partial())
            .description(rpc + " pages cut short to meet the latency max or the caller's deadline")
            .register(metrics);
    this.cancelled =
        Counter.builder(meters.cancelled())
            .description(meters.cancelledDescription())
            .register(metrics);
    Gauge.builder(meters.running(), running, AtomicInteger::get)
        .description(meters.runningDescription())
        .register(metrics);
  }

  private static ScheduledThreadPoolExecutor timers() {
    ScheduledThreadPoolExecutor timers =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "varve-read-deadlines");
              t.setDaemon(true);
              return t;
            });
    timers.setRemoveOnCancelPolicy(true); // a read that ends early takes its timers out at once
    return timers;
  }

  /** The budget of a call of the current request under {@code slo}, made by {@code maker}. */
  public <B extends CallBudget> B start(LatencySlo slo, Maker<B> maker) {
    RequestDeadline request = RequestDeadline.current();
    B budget =
        maker.make(
            ReadDeadline.of(
                request.startNanos(), slo.max(), request.callerNanos(), System::nanoTime),
            request.callerNanos(),
            TIMERS,
            cancelled::increment);
    running.incrementAndGet();
    request.whenCallerGivesUp(budget::cancel);
    return budget;
  }

  /**
   * The call's result, once it ends: its timers stopped, counted as partial when {@code isPartial}
   * says so. A call stopped at its caller's deadline fails DEADLINE_EXCEEDED, as the caller's own
   * timer says (the server's answer can reach it first: its clock for the deadline started when the
   * request arrived, the caller's may have started when the request was sent); one its caller
   * cancelled fails UNAVAILABLE, which nobody reads.
   */
  public <T> CompletionStage<T> finish(
      CallBudget budget, CompletionStage<T> call, Predicate<? super T> isPartial) {
    return call.handle(
        (value, error) -> {
          budget.close();
          running.decrementAndGet();
          if (budget.cancelled()) {
            if (budget.pastCallerDeadline()) {
              throw new VarveException(
                  VarveException.Kind.DEADLINE_EXCEEDED, rpc + " stopped at its caller's deadline");
            }
            throw new VarveException(
                VarveException.Kind.UNAVAILABLE, rpc + " stopped: its caller cancelled it");
          }
          if (error != null) {
            throw error instanceof RuntimeException r ? r : new IllegalStateException(error);
          }
          if (isPartial.test(value)) {
            partial.increment();
          }
          return value;
        });
  }
}
