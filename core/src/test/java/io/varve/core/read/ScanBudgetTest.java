package io.varve.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.slo.ReadDeadline;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

class ScanBudgetTest {

  private final ScheduledExecutorService timers = Executors.newSingleThreadScheduledExecutor();
  private final AtomicInteger counted = new AtomicInteger();

  @AfterEach
  void stopTimers() {
    timers.shutdownNow();
  }

  private ScanBudget budget(long maxMillis, long callerMillis) {
    long now = System.nanoTime();
    long caller =
        callerMillis < 0 ? Long.MAX_VALUE : now + TimeUnit.MILLISECONDS.toNanos(callerMillis);
    return ScanBudget.of(
        ReadDeadline.of(now, Duration.ofMillis(maxMillis), caller, System::nanoTime),
        caller,
        timers,
        counted::incrementAndGet);
  }

  @Test
  void stopping_cancels_the_fetches_in_flight_and_refuses_later_ones_counting_each() {
    ScanBudget budget = budget(10_000, -1);
    CompletableFuture<String> inFlight = new CompletableFuture<>();
    CompletableFuture<String> done = new CompletableFuture<>();
    budget.track(inFlight);
    budget.track(done);
    done.complete("answered");

    budget.stop();

    assertThat(inFlight).isCancelled();
    assertThat(done).isCompletedWithValue("answered");
    assertThat(budget.mayFetch()).isFalse();
    CompletableFuture<String> late = new CompletableFuture<>();
    budget.track(late);
    assertThat(late).as("a fetch tracked after the stop").isCancelled();
    assertThat(budget.cancelledFetches()).isEqualTo(3);
    assertThat(counted).hasValue(3);
    assertThat(budget.cancelled()).as("stopped, not given up by the caller").isFalse();
  }

  @Test
  void the_callers_deadline_cancels_the_read() throws Exception {
    ScanBudget budget = budget(10_000, 30);
    CompletableFuture<String> inFlight = new CompletableFuture<>();
    budget.track(inFlight);

    assertThat(inFlight).failsWithin(Duration.ofSeconds(5));
    // counted on the timer's thread just after the cancel that the test saw
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
    while (budget.cancelledFetches() == 0 && System.nanoTime() < until) {
      Thread.sleep(1);
    }
    assertThat(budget.cancelled()).isTrue();
    assertThat(budget.cancelledFetches()).isEqualTo(1);
  }

  @Test
  void the_deadline_runs_the_expiry_actions_and_allows_no_further_fetch() throws Exception {
    ScanBudget budget = budget(500, -1);
    CountDownLatch expired = new CountDownLatch(1);
    budget.whenExpired(expired::countDown);
    assertThat(budget.allowsAnother()).isTrue();

    assertThat(expired.await(5, TimeUnit.SECONDS)).isTrue();

    assertThat(budget.expired()).isTrue();
    assertThat(budget.allowsAnother()).isFalse();
    assertThat(budget.mayFetch()).as("expiry alone does not stop the read").isTrue();
  }

  @Test
  void no_budget_allows_everything_and_tracks_nothing() {
    CompletableFuture<String> fetch = new CompletableFuture<>();

    ScanBudget.NONE.track(fetch);
    ScanBudget.NONE.stop();

    assertThat(fetch).isNotDone();
    assertThat(ScanBudget.NONE.allowsAnother()).isTrue();
    assertThat(ScanBudget.NONE.mayFetch()).isTrue();
  }
}
