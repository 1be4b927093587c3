package io.varve.client;

import io.grpc.MethodDescriptor;
import io.varve.client.internal.CallKind;
import io.varve.client.internal.Caller;
import io.varve.client.internal.Handshakes;
import io.varve.client.internal.NamespaceSignals;
import java.util.concurrent.CompletableFuture;

/** A call of a namespace: its handshake first (once), then the call under its objectives. */
final class ClientCalls {

  private final Caller caller;
  private final Handshakes handshakes;

  ClientCalls(Caller caller, Handshakes handshakes) {
    this.caller = caller;
    this.handshakes = handshakes;
  }

  <Q, R> CompletableFuture<R> call(
      MethodDescriptor<Q, R> method,
      Q request,
      String namespace,
      Handshakes.Service service,
      CallKind kind,
      CallSettings settings) {
    return signals(namespace, service)
        .thenCompose(s -> caller.call(method, request, kind, s, settings));
  }

  CompletableFuture<NamespaceSignals> signals(String namespace, Handshakes.Service service) {
    return handshakes.of(namespace, service);
  }

  Handshakes handshakes() {
    return handshakes;
  }

  Caller caller() {
    return caller;
  }
}
