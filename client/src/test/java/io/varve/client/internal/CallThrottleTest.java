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

  CompletableFuture<String> call(String name) {
    CompletableFuture<String> result = new CompletableFuture<>();
    throttle.admit(result, () -> started.add(name));
    return result;
  }

  @Test
  void waiting_calls_start_in_arrival_order_as_slots_free_and_the_ended_ones_are_skipped() {
    CompletableFuture<String> a = call("a");
    CompletableFuture<String> b = call("b");
    CompletableFuture<String> c = call("c");
    CompletableFuture<String> d = call("d");
    assertThat(started).containsExactly("a", "b");
    assertThat(throttle.load()).containsExactly(2, 2);

    c.cancel(false); // its caller gave up while it waited: never started
    a.complete("done");
    assertThat(started).containsExactly("a", "b", "d");
    assertThat(throttle.load()).containsExactly(2, 0);

    b.completeExceptionally(new IllegalStateException("failed"));
    d.complete("done");
    assertThat(throttle.load()).containsExactly(0, 0);
    call("e");
    assertThat(started).containsExactly("a", "b", "d", "e");
  }

  @Test
  void a_call_beyond_the_slots_and_the_queue_fails_at_once_and_is_counted() {
    call("a");
    call("b");
    call("c");
    call("d");
    CompletableFuture<String> refused = call("e");

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
    one.admit(quick, () -> quick.complete("answered at once"));
    assertThat(one.load()).containsExactly(0, 0);
    CompletableFuture<String> next = new CompletableFuture<>();
    one.admit(next, () -> {});
    assertThat(next).isNotDone();
    assertThat(one.load()).containsExactly(1, 0);
  }

  @Test
  void closing_fails_the_waiting_calls_unsent_and_refuses_new_ones() {
    call("a");
    call("b");
    CompletableFuture<String> waiting = call("c");
    throttle.close();
    CompletableFuture<String> after = call("d");

    for (CompletableFuture<String> failed : List.of(waiting, after)) {
      assertThat(failed)
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
    CompletableFuture<String> c = call("c");
    call("d");
    assertThat(throttle.load()).containsExactly(2, 2);

    c.cancel(false);
    assertThat(throttle.load()).containsExactly(2, 1);
    CompletableFuture<String> e = call("e");
    assertThat(e).as("the cancelled call's place is free again").isNotDone();
    assertThat(counters.snapshot().throttled()).isZero();
  }
}
