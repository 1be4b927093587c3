package io.varve.client.internal;

import io.grpc.MethodDescriptor;
import io.grpc.Status;
import io.varve.api.common.v1.ClientSignals;
import io.varve.api.common.v1.HandshakeRequest;
import io.varve.api.common.v1.HandshakeResponse;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.BiFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The handshake of each namespace: made on the first call of a namespace (which waits for it), then
 * again in the background at the server's {@code refresh_interval}. A handshake never fails a call:
 * a server that does not answer it, or answers an error, leaves the namespace on defaults until the
 * next try.
 *
 * <p>Each namespace is asked at the Handshake of its own service ({@code
 * varve.timeseries.v1.TimeSeries/Handshake} or {@code varve.kv.v1.KeyValue/Handshake}; their
 * messages are shared). Thread safe.
 */
public final class Handshakes implements AutoCloseable {

  /** The service a namespace belongs to, as its client knows it. */
  public enum Service {
    TIME_SERIES,
    KEY_VALUE
  }

  private static final Logger LOG = LoggerFactory.getLogger(Handshakes.class);

  private final BiFunction<
          MethodDescriptor<HandshakeRequest, HandshakeResponse>,
          HandshakeRequest,
          CompletableFuture<HandshakeResponse>>
      call;
  private final ClientSignals client;
  private final ScheduledExecutorService scheduler;
  private final Counters counters;
  private final Duration fallbackRefresh;
  private final Map<String, CompletableFuture<NamespaceSignals>> signals =
      new ConcurrentHashMap<>();
  private final Map<String, ScheduledFuture<?>> refreshes = new ConcurrentHashMap<>();
  private volatile boolean closed;

  /**
   * @param call makes one handshake call (not itself subject to a handshake)
   * @param client what this client says of itself
   * @param fallbackRefresh when to try again after a handshake got no answer
   */
  public Handshakes(
      BiFunction<
              MethodDescriptor<HandshakeRequest, HandshakeResponse>,
              HandshakeRequest,
              CompletableFuture<HandshakeResponse>>
          call,
      ClientSignals client,
      ScheduledExecutorService scheduler,
      Counters counters,
      Duration fallbackRefresh) {
    this.call = call;
    this.client = client;
    this.scheduler = scheduler;
    this.counters = counters;
    this.fallbackRefresh = fallbackRefresh;
  }

  /** The namespace's signals: the last handshake's, or the first handshake's once it is over. */
  public CompletableFuture<NamespaceSignals> of(String namespace, Service service) {
    String key = service + "/" + namespace;
    CompletableFuture<NamespaceSignals> known = signals.get(key);
    if (known != null) {
      return known;
    }
    CompletableFuture<NamespaceSignals> first = new CompletableFuture<>();
    known = signals.putIfAbsent(key, first);
    if (known != null) {
      return known;
    }
    handshake(namespace, service).thenAccept(s -> settle(key, namespace, service, s, first));
    return first;
  }

  /** The raw answer of a handshake of {@code namespace}, made now. */
  public CompletableFuture<HandshakeResponse> ask(String namespace, Service service) {
    HandshakeRequest request =
        HandshakeRequest.newBuilder().setNamespace(namespace).setClient(client).build();
    if (service == Service.KEY_VALUE) {
      return call.apply(KeyValueGrpc.getHandshakeMethod(), request);
    }
    return call.apply(TimeSeriesGrpc.getHandshakeMethod(), request);
  }

  private CompletableFuture<NamespaceSignals> handshake(String namespace, Service service) {
    return ask(namespace, service)
        .handle(
            (response, t) -> {
              if (t == null && matches(response, service)) {
                counters.handshakes.increment();
                return NamespaceSignals.of(response, fallbackRefresh);
              }
              LOG.debug(
                  "no handshake for namespace {} ({}): defaults until the next try",
                  namespace,
                  t == null ? "another service's namespace" : Status.fromThrowable(t));
              return NamespaceSignals.unknown(fallbackRefresh);
            });
  }

  private static boolean matches(HandshakeResponse response, Service service) {
    return response.getService().isEmpty() || response.getService().equals(service.name());
  }

  private void settle(
      String key,
      String namespace,
      Service service,
      NamespaceSignals fresh,
      CompletableFuture<NamespaceSignals> first) {
    CompletableFuture<NamespaceSignals> now = signals.get(key);
    // a failed refresh keeps what the last successful handshake said
    if (first.isDone() && fresh.response().isEmpty() && now.join().response().isPresent()) {
      fresh = new NamespaceSignals(now.join().response(), fresh.refreshInterval());
    }
    if (first.isDone()) {
      signals.put(key, CompletableFuture.completedFuture(fresh));
    } else {
      first.complete(fresh);
    }
    if (closed) {
      return;
    }
    try {
      refreshes.put(
          key,
          scheduler.schedule(
              () ->
                  handshake(namespace, service)
                      .thenAccept(s -> settle(key, namespace, service, s, first)),
              fresh.refreshInterval().toNanos(),
              TimeUnit.NANOSECONDS));
    } catch (RejectedExecutionException e) {
      // the client is closing: no more refreshes
    }
  }

  @Override
  public void close() {
    closed = true;
    refreshes.values().forEach(f -> f.cancel(false));
  }
}
