package io.varve.core.limit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

class AsyncLimiterTest {

  /** An operation that runs until the test completes it. */
  private static final class Held {
    final CompletableFuture<String> answer = new CompletableFuture<>();
    boolean started;

    CompletionStage<String> start() {
      started = true;
      return answer;
    }
  }

  private static List<Held> submit(AsyncLimiter limiter, long... sizes) {
    List<Held> ops = new ArrayList<>();
    for (long size : sizes) {
      Held h = new Held();
      limiter.submit(size, h::start);
      ops.add(h);
    }
    return ops;
  }

  @Test
  void batches_over_the_count_wait_for_an_earlier_one_to_complete() {
    AsyncLimiter limiter = new AsyncLimiter("test", 2, Long.MAX_VALUE);
    List<Held> ops = submit(limiter, 1, 1, 1);
    assertThat(ops).extracting(h -> h.started).containsExactly(true, true, false);
    assertThat(limiter.waiting()).isEqualTo(1);
    ops.get(1).answer.complete("ok");
    assertThat(ops.get(2).started).isTrue();
    assertThat(limiter.inFlight()).isEqualTo(2);
  }

  @Test
  void batches_over_the_byte_bound_wait_although_the_count_has_room() {
    AsyncLimiter limiter = new AsyncLimiter("test", 1024, 100);
    List<Held> ops = submit(limiter, 60, 40, 1);
    assertThat(ops).extracting(h -> h.started).containsExactly(true, true, false);
    assertThat(limiter.inFlightBytes()).isEqualTo(100);
    ops.get(0).answer.complete("ok");
    assertThat(ops.get(2).started).isTrue();
    assertThat(limiter.inFlightBytes()).isEqualTo(41);
  }

  @Test
  void a_batch_larger_than_the_bound_runs_alone_and_is_not_overtaken() {
    AsyncLimiter limiter = new AsyncLimiter("test", 1024, 100);
    List<Held> ops = submit(limiter, 10, 500, 10);
    // the large one waits for the small one in flight; the last waits behind the large one
    assertThat(ops).extracting(h -> h.started).containsExactly(true, false, false);
    ops.get(0).answer.complete("ok");
    assertThat(ops).extracting(h -> h.started).containsExactly(true, true, false);
    assertThat(limiter.inFlightBytes()).isEqualTo(500);
    ops.get(1).answer.complete("ok");
    assertThat(ops.get(2).started).isTrue();
    assertThat(limiter.inFlightBytes()).isEqualTo(10);
  }

  @Test
  void the_oldest_wait_is_how_long_the_head_of_the_queue_has_waited() {
    long[] now = {0};
    AsyncLimiter limiter = new AsyncLimiter("test", 1, Long.MAX_VALUE, () -> now[0]);
    assertThat(limiter.oldestWaitNanos()).isZero();
    List<Held> first = submit(limiter, 1, 1);
    now[0] = 300;
    submit(limiter, 1);
    now[0] = 1_000;
    assertThat(limiter.oldestWaitNanos()).isEqualTo(1_000);
    first.get(0).answer.complete("ok");
    assertThat(limiter.oldestWaitNanos()).isEqualTo(700);
    first.get(1).answer.complete("ok");
    assertThat(limiter.oldestWaitNanos()).isZero();
  }

  @Test
  void outcomes_and_failures_reach_the_caller_and_free_their_bytes() {
    AsyncLimiter limiter = new AsyncLimiter("test", 4, 100);
    CompletionStage<String> ok =
        limiter.submit(50, () -> CompletableFuture.completedFuture("done"));
    CompletionStage<String> failed =
        limiter.submit(
            50, () -> CompletableFuture.failedFuture(new IllegalStateException("node down")));
    CompletionStage<String> thrown =
        limiter.submit(
            50,
            () -> {
              throw new IllegalArgumentException("bad statement");
            });
    assertThat(ok.toCompletableFuture().join()).isEqualTo("done");
    assertThat(failed.toCompletableFuture()).isCompletedExceptionally();
    assertThat(thrown.toCompletableFuture()).isCompletedExceptionally();
    assertThat(limiter.inFlight()).isZero();
    assertThat(limiter.inFlightBytes()).isZero();
  }

  @Test
  void a_long_queue_of_operations_failing_at_once_drains_without_nesting() {
    // every node down: each queued batch fails as soon as it starts; 50,000 of them started
    // from inside one another would overflow the stack
    AsyncLimiter limiter = new AsyncLimiter("test", 1, Long.MAX_VALUE);
    Held first = submit(limiter, 1).get(0);
    AtomicInteger failed = new AtomicInteger();
    List<CompletableFuture<Object>> rest = new ArrayList<>();
    for (int i = 0; i < 50_000; i++) {
      rest.add(
          limiter
              .submit(1, () -> CompletableFuture.failedFuture(new IllegalStateException("no node")))
              .toCompletableFuture()
              .whenComplete((v, e) -> failed.incrementAndGet()));
    }
    first.answer.complete("ok");
    assertThat(failed.get()).isEqualTo(50_000);
    assertThat(limiter.waiting()).isZero();
    assertThat(limiter.inFlight()).isZero();
  }
}
