package io.varve.server.kv;

import com.linecorp.armeria.common.logging.RequestLogProperty;
import com.linecorp.armeria.server.ServiceRequestContext;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.cassandra.kv.ReadBudget;
import io.varve.core.error.VarveException;
import io.varve.core.slo.LatencySlo;
import io.varve.core.slo.ReadDeadline;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Gives each read the time budget of its endpoint's objectives and of its caller: from the
 * request's start (as Armeria saw it) to the smaller of the latency max and the request's deadline
 * (a gRPC caller's {@code grpc-timeout}, otherwise the server's request timeout). When the caller
 * gives up (deadline passed, call cancelled), the read's outstanding fetch is cancelled and no
 * other starts. Counts pages cut short, fetches cancelled and reads in flight.
 */
final class ReadBudgets {

  private final Counter partial;
  private final Counter cancelled;
  private final AtomicInteger running = new AtomicInteger();

  /**
   * Fires the budgets' deadlines. Its tasks only cancel fetches: what a cancelled fetch completes
   * (the page's answer) runs here, a few microseconds.
   */
  private final ScheduledThreadPoolExecutor timers = timers();

  ReadBudgets(MeterRegistry metrics) {
    this.partial =
        Counter.builder("varve.kv.read.pages.partial")
            .description(
                "GetItems and ScanItems pages cut short to meet the latency max or the caller's deadline")
            .register(metrics);
    this.cancelled =
        Counter.builder("varve.kv.read.fetches.cancelled")
            .description(
                "CQL fetches of GetItems and ScanItems cancelled in flight or not started because the caller"
                    + " gave up")
            .register(metrics);
    Gauge.builder("varve.kv.reads.running", running, AtomicInteger::get)
        .description("GetItems and ScanItems pages being read now")
        .register(metrics);
  }

  private static ScheduledThreadPoolExecutor timers() {
    ScheduledThreadPoolExecutor timers =
        new ScheduledThreadPoolExecutor(
            1,
            r -> {
              Thread t = new Thread(r, "varve-kv-read-deadlines");
              t.setDaemon(true);
              return t;
            });
    timers.setRemoveOnCancelPolicy(true); // a read that ends early takes its timers out at once
    return timers;
  }

  /** The budget of a read of the current request under {@code slo}. */
  ReadBudget start(LatencySlo slo) {
    ServiceRequestContext ctx = ServiceRequestContext.currentOrNull();
    long now = System.nanoTime();
    long start = now;
    long caller = Long.MAX_VALUE;
    if (ctx != null) {
      if (ctx.log().isAvailable(RequestLogProperty.REQUEST_START_TIME)) {
        start = ctx.log().partial().requestStartTimeNanos();
      }
      if (ctx.requestTimeoutMillis() > 0) {
        caller = start + TimeUnit.MILLISECONDS.toNanos(ctx.requestTimeoutMillis());
      }
    }
    ReadBudget budget =
        ReadBudget.of(ReadDeadline.of(start, slo.max(), caller, System::nanoTime), caller, timers);
    running.incrementAndGet();
    if (ctx != null) {
      ctx.whenRequestCancelling().thenRun(budget::cancel);
    }
    return budget;
  }

  /**
   * The read's result, once it ends: counted, its timer stopped; a read the caller gave up fails
   * UNAVAILABLE (nobody reads the answer, the caller has its own DEADLINE_EXCEEDED or CANCELLED).
   */
  <T> CompletionStage<T> finish(ReadBudget budget, CompletionStage<T> read) {
    return read.handle(
        (value, error) -> {
          budget.close();
          running.decrementAndGet();
          cancelled.increment(budget.cancelledFetches());
          if (budget.cancelled()) {
            throw new VarveException(
                VarveException.Kind.UNAVAILABLE, "the read stopped: its caller gave up");
          }
          if (error != null) {
            throw error instanceof RuntimeException r ? r : new IllegalStateException(error);
          }
          if (budget.cutShort()) {
            partial.increment();
          }
          return value;
        });
  }
}
