package io.varve.client.internal;

import io.grpc.MethodDescriptor;
import io.varve.client.CallSettings;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;

/**
 * Makes the client's calls: resolves each call's policy from the caller's settings, the namespace's
 * objectives (its handshake) and the client's defaults, then runs it as a {@link HedgedCall} once
 * the {@link CallThrottle} admits it. Thread safe.
 */
public final class Caller {

  private final Endpoints endpoints;
  private final ScheduledExecutorService scheduler;
  private final Counters counters;
  private final Backoff backoff;
  private final Duration defaultDeadline;
  private final CallSettings clientSettings;
  private final CallThrottle throttle;

  /**
   * @param defaultDeadline the deadline of a call whose RPC has no objective
   * @param clientSettings what the caller overrides for every call
   * @param throttle the bound on the caller's calls in flight
   */
  public Caller(
      Endpoints endpoints,
      ScheduledExecutorService scheduler,
      Counters counters,
      Backoff backoff,
      Duration defaultDeadline,
      CallSettings clientSettings,
      CallThrottle throttle) {
    this.endpoints = endpoints;
    this.scheduler = scheduler;
    this.counters = counters;
    this.backoff = backoff;
    this.defaultDeadline = defaultDeadline;
    this.clientSettings = clientSettings;
    this.throttle = throttle;
  }

  /** Calls {@code method} under {@code signals}' objectives, {@code call}'s settings winning. */
  public <Q, R> CompletableFuture<R> call(
      MethodDescriptor<Q, R> method,
      Q request,
      CallKind kind,
      NamespaceSignals signals,
      CallSettings call) {
    return run(method, request, kind, signals, call, true);
  }

  /** Calls {@code method}, which has no namespace objectives (control plane). */
  public <Q, R> CompletableFuture<R> call(
      MethodDescriptor<Q, R> method, Q request, CallKind kind, CallSettings call) {
    return call(method, request, kind, NamespaceSignals.unknown(Duration.ZERO), call);
  }

  /** A handshake call: not counted among the caller's calls, never hedged. */
  public <Q, R> CompletableFuture<R> handshake(MethodDescriptor<Q, R> method, Q request) {
    return run(
        method,
        request,
        CallKind.IDEMPOTENT,
        NamespaceSignals.unknown(Duration.ZERO),
        CallSettings.defaults(),
        false);
  }

  private <Q, R> CompletableFuture<R> run(
      MethodDescriptor<Q, R> method,
      Q request,
      CallKind kind,
      NamespaceSignals signals,
      CallSettings call,
      boolean counted) {
    HedgedCall<Q, R> hedged =
        new HedgedCall<>(
            endpoints,
            method,
            request,
            policy(method.getBareMethodName(), kind, signals, clientSettings.overriddenBy(call)),
            backoff,
            scheduler,
            counters,
            System::nanoTime);
    CompletableFuture<R> result = hedged.start(counted);
    if (counted) {
      return throttle.admit(result, hedged::send);
    }
    hedged.send(); // a handshake: the client's own, it must not wait behind the calls it serves
    return result;
  }

  /** Fails the calls waiting for a slot, and every call made from now on. */
  public void close() {
    throttle.close();
  }

  CallPolicy policy(String rpc, CallKind kind, NamespaceSignals signals, CallSettings settings) {
    Optional<NamespaceSignals.Slo> slo = signals.slo(rpc);
    Optional<Duration> deadline =
        settings.unbounded()
            ? Optional.empty()
            : settings
                .deadline()
                .or(() -> slo.flatMap(NamespaceSignals.Slo::max))
                .or(() -> Optional.of(defaultDeadline));
    Optional<Duration> hedge =
        !settings.hedging() || kind != CallKind.HEDGED
            ? Optional.empty()
            : settings.hedgeDelay().or(() -> slo.flatMap(NamespaceSignals.Slo::target));
    return new CallPolicy(kind, deadline, hedge);
  }
}
