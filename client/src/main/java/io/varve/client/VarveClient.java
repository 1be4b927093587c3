package io.varve.client;

import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.client.internal.Caller;
import io.varve.client.internal.Counters;
import io.varve.client.internal.Endpoints;
import io.varve.client.internal.Handshakes;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ScheduledExecutorService;

/**
 * A client of Varve's servers: the TimeSeries and KeyValue data planes and the control plane, over
 * gRPC, with one channel per server endpoint shared by every call.
 *
 * <pre>{@code
 * try (VarveClient varve = VarveClient.builder().endpoints("a:8080", "b:8080").build()) {
 *   varve.keyValue().putItems(request).toCompletableFuture().join();
 * }
 * }</pre>
 *
 * <p>What it does for the caller: a handshake of each namespace on its first call, refreshed in the
 * background, whose latency objectives set each call's deadline ({@code max}) and hedging delay
 * ({@code target}); hedging of idempotent calls to another endpoint; bounded retries with
 * exponential backoff and full jitter on UNAVAILABLE and RESOURCE_EXHAUSTED (never on
 * INVALID_ARGUMENT and the like); idempotency tokens and event ids; paging iterators; zstd
 * compression of large KeyValue values when the server supports it. Counts of what it did: {@link
 * #counters()}.
 *
 * <p>Calls return {@link CompletionStage}s completed on the transport's event loop or the client's
 * scheduler: do not block in their callbacks. A failed call completes with the gRPC status as a
 * {@link StatusRuntimeException}. Thread safe; build one per application and close it at the end.
 */
public final class VarveClient implements AutoCloseable {

  private final Endpoints endpoints;
  private final Handshakes handshakes;
  private final Caller caller;
  private final ScheduledExecutorService scheduler;
  private final boolean ownsScheduler;
  private final Counters counters;
  private final TimeSeriesClient timeSeries;
  private final KeyValueClient keyValue;
  private final ControlPlaneClient controlPlane;

  VarveClient(
      Endpoints endpoints,
      ClientCalls calls,
      ScheduledExecutorService scheduler,
      boolean ownsScheduler,
      Counters counters,
      KeyValueClient keyValue) {
    this.endpoints = endpoints;
    this.handshakes = calls.handshakes();
    this.caller = calls.caller();
    this.scheduler = scheduler;
    this.ownsScheduler = ownsScheduler;
    this.counters = counters;
    this.timeSeries = new TimeSeriesClient(calls);
    this.keyValue = keyValue;
    this.controlPlane = new ControlPlaneClient(calls.caller());
  }

  /** A builder: endpoints, TLS, token, deadlines, retries, compression, threads. */
  public static VarveClientBuilder builder() {
    return new VarveClientBuilder();
  }

  /** The TimeSeries data plane. */
  public TimeSeriesClient timeSeries() {
    return timeSeries;
  }

  /** The KeyValue data plane. */
  public KeyValueClient keyValue() {
    return keyValue;
  }

  /** The control plane: namespaces and index backfills. */
  public ControlPlaneClient controlPlane() {
    return controlPlane;
  }

  /**
   * What this client did since it was built: calls, hedges sent and won, retries, handshakes, as a
   * snapshot of this moment; {@link ClientCounters#minus} gives the counts of a window.
   */
  public ClientCounters counters() {
    return counters.snapshot();
  }

  /**
   * Waits for {@code call} and returns its answer, or throws its failure as it is: the gRPC status
   * as a {@link StatusRuntimeException}. An interrupted wait throws {@code CANCELLED}, the thread's
   * interrupt flag set.
   */
  public static <T> T join(CompletionStage<T> call) {
    try {
      return call.toCompletableFuture().get();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw Status.CANCELLED.withDescription("interrupted").withCause(e).asRuntimeException();
    } catch (ExecutionException | CompletionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      while (cause instanceof CompletionException && cause.getCause() != null) {
        cause = cause.getCause();
      }
      if (cause instanceof RuntimeException r) {
        throw r;
      }
      throw Status.fromThrowable(cause).asRuntimeException();
    } catch (CancellationException e) {
      throw Status.CANCELLED.withDescription("cancelled").withCause(e).asRuntimeException();
    }
  }

  /**
   * Stops the background handshakes and closes the channels; calls in flight fail, calls waiting
   * for a slot ({@link VarveClientBuilder#maxCallsInFlight}) fail CANCELLED unsent. Threads and
   * event loops the caller gave the builder are left running.
   */
  @Override
  public void close() {
    handshakes.close();
    caller.close();
    endpoints.close();
    if (ownsScheduler) {
      scheduler.shutdownNow();
    }
  }
}
