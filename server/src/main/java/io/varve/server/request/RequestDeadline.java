package io.varve.server.request;

import com.linecorp.armeria.common.logging.RequestLogProperty;
import com.linecorp.armeria.server.ServiceRequestContext;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The time window of the current request, as {@link System#nanoTime()} readings: when it started
 * (as Armeria saw it, before decoding and queueing) and when its caller stops waiting (a gRPC
 * caller's {@code grpc-timeout}, otherwise the server's request timeout), with the context whose
 * cancellation says the caller gave up.
 *
 * @param startNanos when the request started
 * @param callerNanos the caller's deadline; {@link Long#MAX_VALUE} for none
 * @param context the request's context; empty outside a request (a test calling a handler)
 */
public record RequestDeadline(
    long startNanos, long callerNanos, Optional<ServiceRequestContext> context) {

  /** The window of the request being served on this thread. */
  public static RequestDeadline current() {
    ServiceRequestContext ctx = ServiceRequestContext.currentOrNull();
    long start = System.nanoTime();
    long caller = Long.MAX_VALUE;
    if (ctx != null) {
      if (ctx.log().isAvailable(RequestLogProperty.REQUEST_START_TIME)) {
        start = ctx.log().partial().requestStartTimeNanos();
      }
      if (ctx.requestTimeoutMillis() > 0) {
        caller = start + TimeUnit.MILLISECONDS.toNanos(ctx.requestTimeoutMillis());
      }
    }
    return new RequestDeadline(start, caller, Optional.ofNullable(ctx));
  }

  /** Runs {@code action} when the caller gives up: cancels, or its deadline passes. */
  public void whenCallerGivesUp(Runnable action) {
    context.ifPresent(ctx -> ctx.whenRequestCancelling().thenRun(action));
  }
}
