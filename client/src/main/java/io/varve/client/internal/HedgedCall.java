package io.varve.client.internal;

import com.linecorp.armeria.common.ClosedSessionException;
import com.linecorp.armeria.common.stream.ClosedStreamException;
import io.grpc.CallOptions;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ClientCalls;
import io.grpc.stub.StreamObserver;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * One unary call as the caller sees it: a first request, a hedge to another endpoint when the first
 * has not answered within the hedging delay, the first answer taken and the other request
 * cancelled, and bounded retries with backoff on the failures its {@link CallKind} allows, all
 * within one deadline. Each round (a first request and its hedge) fails only once both requests
 * failed.
 */
final class HedgedCall<Q, R> {

  /** The requests of one attempt: the first one and its hedge. */
  private final class Round {
    final int endpoint;
    final List<ClientCall<Q, R>> calls = new ArrayList<>(2);
    int inFlight;
    boolean over;

    Round(int endpoint) {
      this.endpoint = endpoint;
    }
  }

  private final Endpoints endpoints;
  private final MethodDescriptor<Q, R> method;
  private final Q request;
  private final CallPolicy policy;
  private final Backoff backoff;
  private final ScheduledExecutorService scheduler;
  private final Counters counters;
  private final LongSupplier nanoTime;
  private final long deadlineNanos;
  final CompletableFuture<R> result = new CompletableFuture<>();

  private int retries;
  private Round current;

  /**
   * @param nanoTime the clock of the deadline and of the hedge and retry delays, the scheduler's
   *     ({@link System#nanoTime} for a real one)
   */
  HedgedCall(
      Endpoints endpoints,
      MethodDescriptor<Q, R> method,
      Q request,
      CallPolicy policy,
      Backoff backoff,
      ScheduledExecutorService scheduler,
      Counters counters,
      LongSupplier nanoTime) {
    this.endpoints = endpoints;
    this.method = method;
    this.request = request;
    this.policy = policy;
    this.backoff = backoff;
    this.scheduler = scheduler;
    this.counters = counters;
    this.nanoTime = nanoTime;
    this.deadlineNanos = policy.deadline().map(d -> nanoTime.getAsLong() + d.toNanos()).orElse(0L);
    result.whenComplete(
        (r, t) -> {
          if (result.isCancelled()) {
            cancelAll("cancelled by the caller");
          }
        });
  }

  /**
   * Counts the call and starts its deadline; its first request waits for {@link #send()}: the
   * caller's deadline runs from now, whether the call is sent at once or waits for a slot.
   */
  CompletableFuture<R> start(boolean counted) {
    if (counted) {
      counters.calls.increment();
    }
    if (policy.deadline().isPresent()) {
      // the transport's deadline starts once a connection is there; the caller's starts now
      ScheduledFuture<?> expiry =
          scheduler.schedule(
              this::expire, deadlineNanos - nanoTime.getAsLong(), TimeUnit.NANOSECONDS);
      result.whenComplete((r, t) -> expiry.cancel(false));
    }
    return result;
  }

  /** Sends the call's first request (and, as they fall due, its hedge and retries). */
  void send() {
    round(endpoints.pick());
  }

  private void expire() {
    boolean sent;
    synchronized (this) {
      sent = current != null;
    }
    String why =
        sent
            ? "no answer within the call's deadline of " + policy.deadline().orElseThrow()
            : "the call waited its whole deadline of "
                + policy.deadline().orElseThrow()
                + " for one of the client's maxCallsInFlight to end; not sent";
    if (result.completeExceptionally(
        Status.DEADLINE_EXCEEDED.withDescription(why).asRuntimeException())) {
      cancelAll("deadline exceeded");
    }
  }

  private void round(int endpoint) {
    Round round;
    synchronized (this) {
      if (result.isDone()) {
        return;
      }
      round = new Round(endpoint);
      current = round;
    }
    send(round, endpoint, false);
    if (policy.kind() == CallKind.HEDGED && policy.hedgeDelay().isPresent()) {
      long delay = policy.hedgeDelay().get().toNanos();
      if (policy.deadline().isEmpty() || nanoTime.getAsLong() + delay < deadlineNanos) {
        ScheduledFuture<?> hedge =
            scheduler.schedule(() -> hedge(round), delay, TimeUnit.NANOSECONDS);
        result.whenComplete((r, t) -> hedge.cancel(false));
      }
    }
  }

  private void hedge(Round round) {
    synchronized (this) {
      if (round.over || result.isDone()) {
        return;
      }
    }
    counters.hedgesSent.increment();
    send(round, endpoints.other(round.endpoint), true);
  }

  private void send(Round round, int endpoint, boolean hedge) {
    CallOptions options = CallOptions.DEFAULT;
    if (policy.deadline().isPresent()) {
      options =
          options.withDeadlineAfter(deadlineNanos - nanoTime.getAsLong(), TimeUnit.NANOSECONDS);
    }
    ClientCall<Q, R> call = endpoints.channel(endpoint).newCall(method, options);
    synchronized (this) {
      if (result.isDone() || round.over) {
        // answered, expired or cancelled since this request fell due: whoever cancels the others
        // (cancelAll, or succeeded for a round's loser) has taken its list, so it is not sent
        return;
      }
      round.calls.add(call);
      round.inFlight++;
    }
    ClientCalls.asyncUnaryCall(
        call,
        request,
        new StreamObserver<R>() {
          private R value;

          @Override
          public void onNext(R response) {
            value = response;
          }

          @Override
          public void onError(Throwable t) {
            failed(round, t);
          }

          @Override
          public void onCompleted() {
            succeeded(round, call, value, hedge);
          }
        });
  }

  private void succeeded(Round round, ClientCall<Q, R> winner, R value, boolean hedge) {
    List<ClientCall<Q, R>> losers;
    synchronized (this) {
      if (result.isDone()) {
        return;
      }
      round.over = true;
      losers = new ArrayList<>(round.calls);
      losers.remove(winner);
    }
    if (hedge) {
      counters.hedgesWon.increment();
    }
    for (ClientCall<Q, R> loser : losers) {
      loser.cancel("another request answered first", null);
    }
    result.complete(value);
  }

  private void failed(Round round, Throwable t) {
    StatusRuntimeException failure = asStatus(t);
    long retryDelay;
    synchronized (this) {
      round.inFlight--;
      if (result.isDone() || round.over || round.inFlight > 0) {
        // the other request of the round may still answer
        return;
      }
      round.over = true;
      retryDelay = retryDelay(failure.getStatus().getCode());
      if (retryDelay >= 0) {
        retries++;
      }
    }
    if (retryDelay < 0) {
      result.completeExceptionally(failure);
      return;
    }
    counters.retries.increment();
    int next = endpoints.other(round.endpoint);
    scheduler.schedule(() -> round(next), retryDelay, TimeUnit.NANOSECONDS);
  }

  /** The wait before retrying after {@code code}, or -1 when the call fails with it. */
  private long retryDelay(Status.Code code) {
    if (!policy.kind().retries(code) || retries >= backoff.maxRetries()) {
      return -1;
    }
    long delay = backoff.delayNanos(retries + 1);
    if (policy.deadline().isPresent() && nanoTime.getAsLong() + delay >= deadlineNanos) {
      return -1;
    }
    return delay;
  }

  private void cancelAll(String why) {
    List<ClientCall<Q, R>> calls;
    synchronized (this) {
      calls = current == null ? List.of() : new ArrayList<>(current.calls);
    }
    calls.forEach(c -> c.cancel(why, null));
  }

  private static StatusRuntimeException asStatus(Throwable t) {
    Status status = Status.fromThrowable(t);
    Metadata trailers = Status.trailersFromThrowable(t);
    if (status.getCode() == Status.Code.UNKNOWN && connectionLost(status.getCause())) {
      // grpc-java's status when the connection drops before the answer (a server stopping, a
      // network failure): the call may or may not have been applied, so idempotent kinds retry it
      // on the next endpoint and others fail with it; Armeria's client reports it as UNKNOWN
      return Status.UNAVAILABLE
          .withDescription("the connection closed before the server answered")
          .withCause(status.getCause())
          .asRuntimeException(trailers);
    }
    return t instanceof StatusRuntimeException e ? e : status.asRuntimeException(trailers);
  }

  /** Whether {@code cause} says the connection or stream closed under the request. */
  private static boolean connectionLost(Throwable cause) {
    for (Throwable c = cause; c != null; c = c.getCause()) {
      if (c instanceof ClosedSessionException || c instanceof ClosedStreamException) {
        return true;
      }
    }
    return false;
  }
}
