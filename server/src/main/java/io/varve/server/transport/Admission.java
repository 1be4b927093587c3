package io.varve.server.transport;

import com.linecorp.armeria.common.FilteredHttpRequest;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpObject;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.ResponseHeaders;
import com.linecorp.armeria.common.util.Exceptions;
import com.linecorp.armeria.server.DecoratingHttpServiceFunction;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.ServiceRequestContext;
import io.varve.core.error.Causes;
import io.varve.server.admission.AdmissionControl;
import io.varve.server.admission.AdmissionRefusedException;
import io.varve.server.admission.ByteBudget;
import io.varve.server.error.ErrorMapping;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Admits an API request only when its budget ({@link AdmissionControl}) has room for what it will
 * hold in flight: at once from its Content-Length, else chunk by chunk as the body streams in (the
 * body is then read in full here, counted, before the service sees it). A refused request gets
 * RESOURCE_EXHAUSTED: HTTP 429 with a JSON error and {@code Retry-After}, or a gRPC status. What a
 * request holds is given back when its exchange is over, whether it completed, failed or was
 * cancelled.
 */
final class Admission implements DecoratingHttpServiceFunction {

  private final AdmissionControl control;
  private final AdmissionControl.Transport transport;

  Admission(AdmissionControl control, AdmissionControl.Transport transport) {
    this.control = control;
    this.transport = transport;
  }

  @Override
  public HttpResponse serve(HttpService delegate, ServiceRequestContext ctx, HttpRequest req)
      throws Exception {
    String path = ctx.path();
    ByteBudget budget = control.budgetOf(path.substring(path.lastIndexOf('/') + 1));
    Optional<AdmissionRefusedException> backlog = control.backlog(budget, transport);
    if (backlog.isPresent()) {
      return refusal(ctx, req, backlog.get(), true);
    }
    ByteBudget.Permit permit = budget.open();
    // the log completes when the exchange is over in any way: success, error, reset, timeout
    ctx.log().whenComplete().thenRun(permit::close);
    long declared = req.headers().contentLength();
    if (!permit.tryAdd(AdmissionControl.MIN_COST + transport.cost(Math.max(declared, 0)))) {
      permit.close();
      return refusal(ctx, req, control.refuse(budget, transport, "declared"), true);
    }
    if (declared >= 0) {
      return delegate.serve(ctx, req);
    }
    HttpRequest counted =
        new FilteredHttpRequest(req) {
          @Override
          protected HttpObject filter(HttpObject obj) {
            if (obj instanceof HttpData data && !permit.tryAdd(transport.cost(data.length()))) {
              throw control.refuse(budget, transport, "streamed");
            }
            return obj;
          }
        };
    return HttpResponse.of(
        counted
            .aggregate()
            .handle(
                (body, error) -> {
                  if (error != null) {
                    permit.close();
                    Throwable cause = Causes.unwrap(error);
                    if (cause instanceof AdmissionRefusedException refused) {
                      return refusal(ctx, req, refused, false);
                    }
                    return HttpResponse.ofFailure(cause);
                  }
                  HttpRequest whole = body.toHttpRequest();
                  ctx.updateRequest(whole);
                  try {
                    return delegate.serve(ctx, whole);
                  } catch (Exception e) {
                    return Exceptions.throwUnsafely(e);
                  }
                }));
  }

  /**
   * The refusal, in the caller's protocol. An unread body is drained first (not kept): an HTTP/1
   * client still sending it would otherwise see the connection reset instead of the answer.
   */
  private HttpResponse refusal(
      ServiceRequestContext ctx,
      HttpRequest req,
      AdmissionRefusedException refused,
      boolean drain) {
    ErrorMapping.Failure failure = ErrorMapping.of(refused);
    MediaType type = req.contentType();
    HttpResponse response;
    if (type != null && type.subtype().startsWith("grpc")) {
      response =
          HttpResponse.of(
              ResponseHeaders.builder(HttpStatus.OK)
                  .contentType(type)
                  .add("grpc-status", Integer.toString(failure.grpcStatus().getCode().value()))
                  .add("grpc-message", percentEncoded(failure.message()))
                  .add(HttpHeaderNames.RETRY_AFTER, JsonErrors.RETRY_AFTER_SECONDS)
                  .endOfStream(true)
                  .build());
    } else {
      response =
          JsonErrors.response(
              failure.httpStatus(), failure.kind().name(), failure.field(), failure.message());
    }
    if (!drain) {
      return response;
    }
    CompletableFuture<HttpResponse> drained = new CompletableFuture<>();
    req.subscribe(new Drain(() -> drained.complete(response)), ctx.eventLoop());
    return HttpResponse.of(drained);
  }

  /** The grpc-message header's encoding: percent-encoded UTF-8 outside printable ASCII and '%'. */
  static String percentEncoded(String message) {
    StringBuilder out = new StringBuilder();
    for (byte b : message.getBytes(StandardCharsets.UTF_8)) {
      if (b >= ' ' && b < '~' && b != '%') {
        out.append((char) b);
      } else {
        out.append('%').append(String.format("%02X", b & 0xff));
      }
    }
    return out.toString();
  }

  /** Reads a body to its end, keeping nothing. */
  private record Drain(Runnable done) implements Subscriber<HttpObject> {
    @Override
    public void onSubscribe(Subscription s) {
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(HttpObject obj) {}

    @Override
    public void onError(Throwable t) {
      done.run();
    }

    @Override
    public void onComplete() {
      done.run();
    }
  }
}
