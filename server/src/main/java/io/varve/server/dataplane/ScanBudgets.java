package io.varve.server.dataplane;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.error.VarveException;
import io.varve.core.read.ScanBudget;
import io.varve.core.slo.LatencySlo;
import io.varve.core.slo.ReadDeadline;
import io.varve.server.request.RequestDeadline;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * Gives each call of one TimeSeries read endpoint the time budget of the namespace's objectives and
 * of its caller ({@link RequestDeadline}): the read stops taking work at the smaller of the latency
 * max and the caller's deadline. When the caller gives up, the read's fetches in flight are
 * cancelled and no other starts. Counts, as {@code varve.timeseries.<name>.*}: pages cut short,
 * fetches cancelled, calls running.
 */
final class ScanBudgets {

  /**
   * Fires every budget's deadlines. Its tasks only stop reads: cancelling a fetch completes a page
   * here, a few microseconds.
   */
  private static final ScheduledThreadPoolExecutor TIMERS = timers();

  private final String rpc;
  private final Counter partial;
  private final Counter cancelled;
  private final AtomicInteger running = new AtomicInteger();

  /**
   * @param name the metrics' infix: {@code read}, {@code search}, {@code aggregate}
   * @param rpc the endpoint, for descriptions and errors
   */
  ScanBudgets(MeterRegistry metrics, String name, String rpc) {
    this.rpc = rpc;
    String prefix = "varve.timeseries." + name;
    this.partial =
        Counter.builder(prefix + ".pages.partial")
            .description(rpc + " pages cut short to meet the latency max or the caller's deadline")
            .register(metrics);
    this.cancelled =
        Counter.builder(prefix + ".fetches.cancelled")
            .description(
                "Fetches of "
                    + rpc
                    + " cancelled in flight or not started: the call was cut at its latency max"
                    + " or its caller gave up")
            .register(metrics);
    Gauge.builder(prefix + ".running", running, AtomicInteger::get)
        .description(rpc + " calls running now")
        .register(metrics);
  }

  private static ScheduledThreadPoolExecutor timers() {
    ScheduledThreadPoolExecutor timers =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "varve-timeseries-read-deadlines");
              t.setDaemon(true);
              return t;
            });
    timers.setRemoveOnCancelPolicy(true); // a read that ends early takes its timers out at once
    return timers;
  }

  /** The budget of a call of the current request under {@code slo}. */
  ScanBudget start(LatencySlo slo) {
    RequestDeadline request = RequestDeadline.current();
    ScanBudget budget =
        ScanBudget.of(
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
   * says so. A call the caller gave up fails UNAVAILABLE (nobody reads the answer: the caller has
   * its own DEADLINE_EXCEEDED or CANCELLED).
   */
  <T> CompletionStage<T> finish(
      ScanBudget budget, CompletionStage<T> call, Predicate<? super T> isPartial) {
    return call.handle(
        (value, error) -> {
          budget.close();
          running.decrementAndGet();
          if (budget.cancelled()) {
            throw new VarveException(
                VarveException.Kind.UNAVAILABLE, rpc + " stopped: its caller gave up");
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
