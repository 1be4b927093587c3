package io.varve.client;

import io.grpc.MethodDescriptor;
import io.varve.client.internal.CallKind;
import io.varve.client.internal.Caller;
import io.varve.client.internal.Handshakes;
import io.varve.client.internal.NamespaceSignals;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;

/**
 * A call of a namespace: its handshake first (once), then the call under its objectives. Cancelling
 * the returned future cancels the requests in flight.
 */
final class ClientCalls {

  private final Caller caller;
  private final Handshakes handshakes;

  ClientCalls(Caller caller, Handshakes handshakes) {
    this.caller = caller;
    this.handshakes = handshakes;
  }

  /** Calls {@code method} with {@code request} once the namespace's signals are known. */
  <Q, R> CompletableFuture<R> call(
      MethodDescriptor<Q, R> method,
      Q request,
      String namespace,
      Handshakes.Service service,
      CallKind kind,
      CallSettings settings) {
    return call(method, namespace, service, s -> request, kind, settings);
  }

  /** As above, the request shaped by the signals (compression, signals of the request). */
  <Q, R> CompletableFuture<R> call(
      MethodDescriptor<Q, R> method,
      String namespace,
      Handshakes.Service service,
      Function<NamespaceSignals, Q> request,
      CallKind kind,
      CallSettings settings) {
    CompletableFuture<R> result = new CompletableFuture<>();
    handshakes
        .of(namespace, service)
        .thenAccept(
            signals -> {
              if (result.isDone()) {
                return;
              }
              CompletableFuture<R> call;
              try {
                call = caller.call(method, request.apply(signals), kind, signals, settings);
              } catch (RuntimeException e) {
                result.completeExceptionally(e);
                return;
              }
              result.whenComplete(
                  (r, t) -> {
                    if (result.isCancelled()) {
                      call.cancel(false);
                    }
                  });
              call.whenComplete(
                  (r, t) -> {
                    if (t == null) {
                      result.complete(r);
                    } else {
                      result.completeExceptionally(t);
                    }
                  });
            });
    return result;
  }

  Handshakes handshakes() {
    return handshakes;
  }

  Caller caller() {
    return caller;
  }
}
