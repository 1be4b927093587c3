package io.varve.client;

import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a caller overrides of a call's policy: its deadline and its hedging delay. Unset values come
 * from the namespace's latency objectives (the handshake's {@code max} and {@code target} of the
 * RPC), else from the client's defaults ({@link VarveClientBuilder#defaultDeadline}: no hedging
 * without a {@code target}).
 *
 * <p>Set for every call with {@link VarveClientBuilder#callSettings}, or for one call by the
 * overloads that take it; a call's own settings win over the client's. Immutable and thread safe.
 *
 * @param deadline the whole call's deadline, retries and hedges included; empty: the objective's
 *     {@code max}
 * @param hedgeDelay how long to wait for an answer before sending the same request to another
 *     endpoint (idempotent calls only); empty: the objective's {@code target}
 * @param hedging whether an idempotent call may be hedged at all
 * @param unbounded whether the call has no deadline at all (a long-running control-plane call)
 */
public record CallSettings(
    Optional<Duration> deadline,
    Optional<Duration> hedgeDelay,
    boolean hedging,
    boolean unbounded) {

  private static final CallSettings DEFAULTS =
      new CallSettings(Optional.empty(), Optional.empty(), true, false);

  /** Checks the durations are positive. */
  public CallSettings {
    Objects.requireNonNull(deadline, "deadline");
    Objects.requireNonNull(hedgeDelay, "hedgeDelay");
    deadline.ifPresent(d -> positive("deadline", d));
    hedgeDelay.ifPresent(d -> positive("hedgeDelay", d));
  }

  /** Nothing overridden: the namespace's objectives and the client's defaults apply. */
  public static CallSettings defaults() {
    return DEFAULTS;
  }

  /** These settings with the whole call bounded by {@code deadline}. */
  public CallSettings withDeadline(Duration deadline) {
    return new CallSettings(Optional.of(deadline), hedgeDelay, hedging, false);
  }

  /** These settings with no deadline: the call waits as long as the server works. */
  public CallSettings withoutDeadline() {
    return new CallSettings(Optional.empty(), hedgeDelay, hedging, true);
  }

  /** These settings hedging an idempotent call after {@code delay} without an answer. */
  public CallSettings withHedgeDelay(Duration delay) {
    return new CallSettings(deadline, Optional.of(delay), true, unbounded);
  }

  /** These settings never hedging. */
  public CallSettings withoutHedging() {
    return new CallSettings(deadline, Optional.empty(), false, unbounded);
  }

  /** {@code call}'s settings, falling back to these ones for what it leaves unset. */
  public CallSettings overriddenBy(CallSettings call) {
    return new CallSettings(
        call.deadline.or(() -> deadline),
        call.hedgeDelay.or(() -> hedgeDelay),
        hedging && call.hedging,
        call.unbounded || (unbounded && call.deadline.isEmpty()));
  }

  private static void positive(String name, Duration d) {
    if (d.isNegative() || d.isZero()) {
      throw new IllegalArgumentException(name + ": " + d + " (expected: a positive duration)");
    }
  }
}
