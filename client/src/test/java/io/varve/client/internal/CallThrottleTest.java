package io.varve.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.Test;

class CallThrottleTest {

  final Counters counters = new Counters();
  final CallThrottle throttle = new CallThrottle(2, 2, Runnable::run, counters);
  final List<String> started = new ArrayList<>();

  /** A call as the transport ends it ({@code call}) and as its caller sees it ({@code seen}). */
  record Call(CompletableFuture<String> call, CompletableFuture<String> seen) {}

  Call call(String name) {
    return call(throttle, name);
  }

  Call call(CallThrottle to, String name) {
    CompletableFuture<String> call = new CompletableFuture<>();
    return new Call(call, to.admit(call, () -> started.add(name)));
  }

  @Test
  void waiting_calls_start_in_arrival_order_as_slots_free_and_the_ended_ones_are_skipped() {
    Call a = call("a");
    Call b = call("b");
    Call c = call("c");
    Call d = call("d");
    assertThat(started).containsExactly("a", "b");
    assertThat(throttle.load()).containsExactly(2, 2);

    c.seen().cancel(false); // its caller gave up while it waited: never started
    assertThat(c.call()).as("the caller's cancel reaches the call").isCancelled();
    a.call().complete("done");
    assertThat(a.seen()).isCompletedWithValue("done");
    assertThat(started).containsExactly("a", "b", "d");
    assertThat(throttle.load()).containsExactly(2, 0);

    b.call().completeExceptionally(new IllegalStateException("failed"));
    assertThat(b.seen()).isCompletedExceptionally();
    d.call().complete("done");
    assertThat(throttle.load()).containsExactly(0, 0);
    call("e");
    assertThat(started).containsExactly("a", "b", "d", "e");
  }

  @Test
  void a_caller_that_calls_again_the_moment_a_call_ends_finds_its_slot_free() {
    CallThrottle one = new CallThrottle(1, 0, Runnable::run, counters);
    Call first = call(one, "first");
    List<Call> next = new ArrayList<>();
    // the caller's own reaction to the end of its call, as a join() returning would be
    first.seen().thenRun(() -> next.add(call(one, "next")));
    first.call().complete("done");

    assertThat(next).hasSize(1);
    assertThat(next.get(0).seen()).as("not refused: the slot was given back first").isNotDone();
    assertThat(started).containsExactly("first", "next");
    assertThat(counters.snapshot().throttled()).isZero();
  }

  @Test
  void a_call_beyond_the_slots_and_the_queue_fails_at_once_and_is_counted() {
    call("a");
    call("b");
    call("c");
    call("d");
    CompletableFuture<String> refused = call("e").seen();

    assertThat(refused)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
              assertThat(e.getStatus().getDescription())
                  .contains("2 calls in flight and 2 waiting");
            });
    assertThat(started).containsExactly("a", "b");
    assertThat(counters.snapshot().throttled()).isEqualTo(1);
  }

  @Test
  void a_call_that_ends_while_it_starts_frees_its_slot() {
    CallThrottle one = new CallThrottle(1, 0, Runnable::run, counters);
    CompletableFuture<String> quick = new CompletableFuture<>();
    CompletableFuture<String> seen = one.admit(quick, () -> quick.complete("answered at once"));
    assertThat(seen).isCompletedWithValue("answered at once");
    assertThat(one.load()).containsExactly(0, 0);
    Call next = call(one, "next");
    assertThat(next.seen()).isNotDone();
    assertThat(one.load()).containsExactly(1, 0);
  }

  @Test
  void closing_fails_the_waiting_calls_unsent_and_refuses_new_ones() {
    call("a");
    call("b");
    Call waiting = call("c");
    throttle.close();
    Call after = call("d");

    for (Call failed : List.of(waiting, after)) {
      assertThat(failed.seen())
          .failsWithin(Duration.ZERO)
          .withThrowableOfType(ExecutionException.class)
          .havingCause()
          .isInstanceOfSatisfying(
              StatusRuntimeException.class,
              e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.CANCELLED));
    }
    assertThat(started).containsExactly("a", "b");
  }

  @Test
  void a_call_that_ends_while_it_waits_gives_its_place_in_the_queue_back() {
    call("a");
    call("b");
    Call c = call("c");
    call("d");
    assertThat(throttle.load()).containsExactly(2, 2);

    c.call().completeExceptionally(new IllegalStateException("its deadline passed"));
    assertThat(throttle.load()).containsExactly(2, 1);
    Call e = call("e");
    assertThat(e.seen()).as("the ended call's place is free again").isNotDone();
    assertThat(counters.snapshot().throttled()).isZero();
  }
}
