package io.varve.server.transport;

import com.linecorp.armeria.common.ExchangeType;
import com.linecorp.armeria.common.FilteredHttpRequest;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpObject;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.stream.SubscriptionOption;
import com.linecorp.armeria.common.util.Exceptions;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.RoutingContext;
import com.linecorp.armeria.server.ServiceRequestContext;
import com.linecorp.armeria.server.SimpleDecoratingHttpService;
import io.netty.util.AttributeKey;
import io.varve.core.error.Causes;
import io.varve.server.admission.AdmissionControl;
import io.varve.server.admission.AdmissionRefusedException;
import io.varve.server.admission.ByteBudget;
import io.varve.server.admission.ResponseAdmission;
import io.varve.server.error.ErrorMapping;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.reactivestreams.Subscriber;
import org.reactivestreams.Subscription;

/**
 * Admits an API request only when its budget ({@link AdmissionControl}) has room for what it will
 * hold in flight: at once from its Content-Length, else chunk by chunk as the body streams in. A
 * refused request gets RESOURCE_EXHAUSTED: HTTP 429 with a JSON error and {@code Retry-After}, or a
 * gRPC status. What a request holds is given back when its exchange is over, whether it completed,
 * failed or was cancelled.
 *
 * <p>Bodies stream through admission and are gathered here, on the heap, before the service sees
 * them. Two reasons, both found by eight 60 MiB PutItems at once on a 512 MiB server:
 *
 * <ul>
 *   <li>Armeria gathers the whole body of a unary exchange (every unary gRPC method) in direct
 *       memory before it calls the first decorator, so concurrent large bodies exhausted the direct
 *       memory before any could be refused. This decorator declares its exchange request-streaming,
 *       so the server hands it the headers first.
 *   <li>The frames of concurrent HTTP/2 streams share the server's receive buffers. A body kept in
 *       those buffers while it is gathered pins every buffer its frames came in, with the frames of
 *       all the other streams: an admitted 60 MiB body held 480 MiB of direct memory. Each piece is
 *       copied to the heap as it arrives (counted by the budget) and its buffer freed.
 * </ul>
 *
 * <p>A refused HTTP/2 request is answered at once, its body unread (the stream ends with the
 * answer; the connection's other streams go on); a refused HTTP/1 request has its body read and
 * dropped first, or the client still sending it would see the connection reset instead of the
 * answer.
 */
final class Admission extends SimpleDecoratingHttpService {

  /**
   * The body this decorator gathered, for the inner {@link UnaryFraming} to check in one pass
   * instead of wrapping the request and filtering it as it is read again; it takes the attribute
   * and clears it, so the context does not keep the body alive for the rest of the exchange.
   */
  static final AttributeKey<HttpData> GATHERED_BODY =
      AttributeKey.valueOf(Admission.class, "GATHERED_BODY");

  private final HttpService delegate;
  private final AdmissionControl control;
  private final AdmissionControl.Transport transport;

  Admission(HttpService delegate, AdmissionControl control, AdmissionControl.Transport transport) {
    super(delegate);
    this.delegate = delegate;
    this.control = control;
    this.transport = transport;
  }

  @Override
  public ExchangeType exchangeType(RoutingContext routingContext) {
    return ExchangeType.of(true, delegate.exchangeType(routingContext).isResponseStreaming());
  }

  @Override
  public HttpResponse serve(ServiceRequestContext ctx, HttpRequest req) throws Exception {
    String rpc = AdmissionControl.rpcOf(ctx.path());
    ByteBudget budget = control.budgetOf(rpc);
    Optional<AdmissionRefusedException> backlog = control.backlog(rpc, transport);
    if (backlog.isPresent()) {
      return refusal(ctx, req, backlog.get());
    }
    long declared = Math.max(req.headers().contentLength(), 0);
    Optional<AdmissionRefusedException> full = control.bufferFull(rpc, transport, declared);
    if (full.isPresent()) {
      return refusal(ctx, req, full.get());
    }
    ByteBudget.Permit permit = budget.open();
    // the log completes when the exchange is over in any way: success, error, reset, timeout
    ctx.log().whenComplete().thenRun(permit::close);
    if (!permit.tryAdd(AdmissionControl.MIN_COST + transport.cost(declared))) {
      permit.close();
      return refusal(ctx, req, control.refuse(budget, transport, "declared"));
    }
    ResponseAdmission.attach(ctx, control, budget, permit, transport);
    HttpRequest counted =
        new FilteredHttpRequest(req) {
          private long received;

          @Override
          protected HttpObject filter(HttpObject obj) {
            if (obj instanceof HttpData data) {
              // what the declared length paid for is not counted twice; beyond it, every byte is
              long paid = Math.max(0, declared - received);
              received += data.length();
              long unpaid = Math.max(0, data.length() - paid);
              if (unpaid > 0 && !permit.tryAdd(transport.cost(unpaid))) {
                throw control.refuse(budget, transport, "streamed");
              }
            }
            return obj;
          }
        };
    return HttpResponse.of(
        // aggregate() copies each piece to the heap as it comes and releases its pooled buffer
        counted
            .aggregate()
            .handle(
                (body, error) -> {
                  if (error != null) {
                    permit.close();
                    Throwable cause = Causes.unwrap(error);
                    if (cause instanceof AdmissionRefusedException refused) {
                      return answer(req, refused);
                    }
                    return HttpResponse.ofFailure(cause);
                  }
                  HttpRequest whole = body.toHttpRequest();
                  ctx.updateRequest(whole);
                  if (transport == AdmissionControl.Transport.GRPC) {
                    ctx.setAttr(GATHERED_BODY, body.content());
                  }
                  try {
                    return delegate.serve(ctx, whole);
                  } catch (Exception e) {
                    return Exceptions.throwUnsafely(e);
                  }
                }));
  }

  /**
   * The refusal of a request whose body was not read: on HTTP/2 the answer at once, on HTTP/1 once
   * the body is read and dropped.
   */
  private HttpResponse refusal(
      ServiceRequestContext ctx, HttpRequest req, AdmissionRefusedException refused) {
    HttpResponse response = answer(req, refused);
    if (ctx.sessionProtocol().isMultiplex()) {
      return response;
    }
    CompletableFuture<HttpResponse> drained = new CompletableFuture<>();
    req.subscribe(
        new Drain(() -> drained.complete(response)),
        ctx.eventLoop(),
        SubscriptionOption.WITH_POOLED_OBJECTS);
    return HttpResponse.of(drained);
  }

  /** The refusal, in the caller's protocol. */
  private static HttpResponse answer(HttpRequest req, AdmissionRefusedException refused) {
    ErrorMapping.Failure failure = ErrorMapping.of(refused);
    MediaType type = req.contentType();
    if (type != null && type.subtype().startsWith("grpc")) {
      return ErrorResponses.grpc(failure.grpcStatus(), type, true).toHttpResponse();
    }
    return ErrorResponses.json(failure);
  }

  /** Reads a body to its end, keeping nothing (its pooled buffers are released at once). */
  private record Drain(Runnable done) implements Subscriber<HttpObject> {
    @Override
    public void onSubscribe(Subscription s) {
      s.request(Long.MAX_VALUE);
    }

    @Override
    public void onNext(HttpObject obj) {
      if (obj instanceof HttpData data) {
        data.close();
      }
    }

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
