package io.varve.client.internal;

import io.grpc.CallOptions;
import io.grpc.Channel;
import io.grpc.ClientCall;
import io.grpc.Metadata;
import io.grpc.MethodDescriptor;
import io.grpc.Status;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A server endpoint as the call layer sees it, with no network: every call made on it is kept, and
 * the test answers, fails or watches it. {@link #onNewCall} runs when a call is created, before the
 * caller can start it: the moment a race between two requests of one call can fall into.
 */
final class FakeEndpoint extends Channel {

  /** One request: what the caller did with it, and how the test ends it. */
  static final class Request extends ClientCall<Object, Object> {
    final CallOptions options;
    Listener<Object> listener;
    Object sent;
    String cancelled;
    boolean closed;

    Request(CallOptions options) {
      this.options = options;
    }

    boolean started() {
      return listener != null;
    }

    /** Whether it was started and is neither answered nor cancelled: a request left running. */
    boolean running() {
      return started() && !closed;
    }

    void answer(Object response) {
      listener.onHeaders(new Metadata());
      listener.onMessage(response);
      close(Status.OK);
    }

    void fail(Status status) {
      close(status);
    }

    private void close(Status status) {
      if (!closed) {
        closed = true;
        listener.onClose(status, new Metadata());
      }
    }

    @Override
    public void start(Listener<Object> responseListener, Metadata headers) {
      listener = responseListener;
    }

    @Override
    public void request(int numMessages) {}

    @Override
    public void cancel(String message, Throwable cause) {
      cancelled = message;
      if (listener != null) {
        close(Status.CANCELLED.withDescription(message));
      }
    }

    @Override
    public void halfClose() {}

    @Override
    public void sendMessage(Object message) {
      sent = message;
    }
  }

  final List<Request> requests = new ArrayList<>();
  Consumer<Request> onNewCall = r -> {};
  private final String name;

  FakeEndpoint(String name) {
    this.name = name;
  }

  Request last() {
    return requests.get(requests.size() - 1);
  }

  @Override
  @SuppressWarnings("unchecked")
  public <Q, R> ClientCall<Q, R> newCall(MethodDescriptor<Q, R> method, CallOptions options) {
    Request request = new Request(options);
    requests.add(request);
    onNewCall.accept(request);
    return (ClientCall<Q, R>) (ClientCall<?, ?>) request;
  }

  @Override
  public String authority() {
    return name;
  }
}
