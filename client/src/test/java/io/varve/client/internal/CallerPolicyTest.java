package io.varve.client.internal;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import io.varve.api.common.v1.EndpointSlo;
import io.varve.api.common.v1.HandshakeResponse;
import io.varve.api.common.v1.LatencySlo;
import io.varve.client.CallSettings;
import java.time.Duration;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** How a call's deadline and hedging delay are chosen. */
class CallerPolicyTest {

  static final Duration DEFAULT = Duration.ofSeconds(10);

  final Caller caller =
      new Caller(
          null,
          null,
          new Counters(),
          new Backoff(Duration.ZERO, Duration.ZERO, 0),
          DEFAULT,
          CallSettings.defaults(),
          null);

  static NamespaceSignals getItems(long targetMillis, long maxMillis) {
    return NamespaceSignals.of(
        HandshakeResponse.newBuilder()
            .putSlos(
                "GetItems",
                EndpointSlo.newBuilder()
                    .setLatency(
                        LatencySlo.newBuilder()
                            .setTarget(millis(targetMillis))
                            .setMax(millis(maxMillis)))
                    .build())
            .build(),
        Duration.ofSeconds(30));
  }

  static com.google.protobuf.Duration millis(long ms) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(ms / 1000)
        .setNanos((int) (ms % 1000) * 1_000_000)
        .build();
  }

  @Test
  void the_objective_sets_the_deadline_at_max_and_the_hedge_at_target() {
    CallPolicy p =
        caller.policy("GetItems", CallKind.HEDGED, getItems(20, 300), CallSettings.defaults());
    assertThat(p.deadline()).contains(Duration.ofMillis(300));
    assertThat(p.hedgeDelay()).contains(Duration.ofMillis(20));
  }

  @Test
  void without_an_objective_the_default_deadline_applies_and_nothing_is_hedged() {
    CallPolicy p =
        caller.policy("PutItems", CallKind.HEDGED, getItems(20, 300), CallSettings.defaults());
    assertThat(p.deadline()).contains(DEFAULT);
    assertThat(p.hedgeDelay()).isEmpty();
  }

  @Test
  void the_caller_overrides_the_objective_and_only_hedged_kinds_hedge() {
    CallSettings mine =
        CallSettings.defaults()
            .withDeadline(Duration.ofSeconds(3))
            .withHedgeDelay(Duration.ofMillis(7));
    CallPolicy p = caller.policy("GetItems", CallKind.HEDGED, getItems(20, 300), mine);
    assertThat(p.deadline()).contains(Duration.ofSeconds(3));
    assertThat(p.hedgeDelay()).contains(Duration.ofMillis(7));
    assertThat(caller.policy("GetItems", CallKind.IDEMPOTENT, getItems(20, 300), mine).hedgeDelay())
        .isEmpty();
    assertThat(
            caller
                .policy("GetItems", CallKind.NOT_IDEMPOTENT, getItems(20, 300), mine)
                .hedgeDelay())
        .isEmpty();
    CallSettings none = CallSettings.defaults().withoutHedging().withoutDeadline();
    CallPolicy q = caller.policy("GetItems", CallKind.HEDGED, getItems(20, 300), none);
    assertThat(q.hedgeDelay()).isEmpty();
    assertThat(q.deadline()).isEmpty();
  }

  @Test
  void a_call_setting_wins_over_the_client_setting() {
    CallSettings client = CallSettings.defaults().withDeadline(Duration.ofSeconds(1));
    CallSettings call = CallSettings.defaults().withDeadline(Duration.ofSeconds(2));
    assertThat(client.overriddenBy(call).deadline()).contains(Duration.ofSeconds(2));
    assertThat(client.overriddenBy(CallSettings.defaults()).deadline())
        .contains(Duration.ofSeconds(1));
    assertThat(client.overriddenBy(CallSettings.defaults().withoutDeadline()).unbounded()).isTrue();
    assertThat(Optional.of(client.overriddenBy(CallSettings.defaults().withoutHedging()).hedging()))
        .contains(false);
  }

  @Test
  void only_admission_refusals_are_retried_for_calls_that_are_not_idempotent() {
    assertThat(CallKind.HEDGED.retries(Status.Code.UNAVAILABLE)).isTrue();
    assertThat(CallKind.IDEMPOTENT.retries(Status.Code.RESOURCE_EXHAUSTED)).isTrue();
    assertThat(CallKind.NOT_IDEMPOTENT.retries(Status.Code.RESOURCE_EXHAUSTED)).isTrue();
    assertThat(CallKind.NOT_IDEMPOTENT.retries(Status.Code.UNAVAILABLE)).isFalse();
    for (CallKind kind : CallKind.values()) {
      assertThat(kind.retries(Status.Code.INVALID_ARGUMENT)).isFalse();
      assertThat(kind.retries(Status.Code.DEADLINE_EXCEEDED)).isFalse();
      assertThat(kind.retries(Status.Code.FAILED_PRECONDITION)).isFalse();
    }
  }
}
