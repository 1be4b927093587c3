package io.varve.client.internal;

import java.time.Duration;
import java.util.Optional;

/**
 * How one call is made, once the caller's settings, the namespace's objectives and the client's
 * defaults are resolved.
 *
 * @param kind what the call may do again
 * @param deadline the whole call's deadline; empty: none
 * @param hedgeDelay when to send a hedge (only {@link CallKind#HEDGED} calls); empty: never
 */
public record CallPolicy(
    CallKind kind, Optional<Duration> deadline, Optional<Duration> hedgeDelay) {}
