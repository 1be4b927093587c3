package io.varve.server.transport;

import com.google.protobuf.Message;
import com.linecorp.armeria.common.AggregatedHttpRequest;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.util.SafeCloseable;
import com.linecorp.armeria.server.HttpService;
import com.linecorp.armeria.server.ServiceRequestContext;
import io.varve.core.error.InvalidFieldException;
import io.varve.server.admission.AdmissionControl;
import io.varve.server.error.ErrorMapping;
import io.varve.server.json.ProtoJson;
import io.varve.server.request.JsonCalls;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executor;

/**
 * HTTP/JSON binding of every RPC: {@code POST /v1/<RpcName>} with the JSON form of the request;
 * answers 200 with the JSON form of the response, or an error status with {@code {"error": {"code",
 * "field", "message"}}}. The routes are the RPCs of {@link ApiCalls}, named as in their proto
 * services.
 */
final class JsonRpcService implements HttpService {

  /** The {@code service} tag of the metrics of a call to no RPC. */
  private static final String UNKNOWN_RPC_SERVICE = "varve.timeseries.v1.http";

  /**
   * Bodies of reads up to this size are decoded on the shared blocking pool; larger ones, and every
   * write, on {@link #decoding}.
   */
  static final int SMALL_BODY_BYTES = 64 * 1024;

  private final Map<String, Rpc<?, ?>> rpcs = new LinkedHashMap<>();
  private final ProtoJson json;
  private final Executor decoding;

  /**
   * @param rpcs the RPCs; two of one name are the same RPC served by two services ({@link
   *     ApiCalls#check}), answered here by the first
   */
  JsonRpcService(List<Rpc<?, ?>> rpcs, ProtoJson json, Executor decoding) {
    for (Rpc<?, ?> rpc : rpcs) {
      this.rpcs.putIfAbsent(rpc.name(), rpc);
    }
    this.json = json;
    this.decoding = decoding;
  }

  @Override
  public HttpResponse serve(ServiceRequestContext ctx, HttpRequest req) {
    String name = ctx.pathParam("rpc");
    Rpc<?, ?> rpc = rpcs.get(name);
    ctx.logBuilder()
        .name(
            rpc == null ? UNKNOWN_RPC_SERVICE : metricsService(rpc),
            rpc == null ? "unknown" : name);
    if (rpc == null) {
      return error(
          HttpStatus.NOT_FOUND,
          "no RPC named '"
              + name
              + "' (expected one of: "
              + String.join(", ", rpcs.keySet())
              + ")");
    }
    if (req.method() != HttpMethod.POST) {
      return error(HttpStatus.METHOD_NOT_ALLOWED, "use POST /v1/" + name);
    }
    // parsing a body of megabytes must not hold an event loop: other connections' answers (a
    // refusal at admission, a small read) would wait behind it
    return HttpResponse.of(
        req.aggregate()
            .thenCompose(
                body ->
                    CompletableFuture.supplyAsync(
                            () -> call(ctx, rpc, body), decoderOf(ctx, rpc, body))
                        .thenCompose(answer -> answer)));
  }

  /**
   * Where {@code body} is decoded and its RPC called: writes and large bodies take turns on the few
   * threads of {@code decoding}, so that however many writes are admitted, the CPU they take from a
   * small request (a read, a control-plane call) is bounded by that pool's size, not by their
   * number, and admission sees how long they wait.
   */
  private Executor decoderOf(ServiceRequestContext ctx, Rpc<?, ?> rpc, AggregatedHttpRequest body) {
    return AdmissionControl.isWrite(rpc.name()) || body.content().length() > SMALL_BODY_BYTES
        ? decoding
        : ctx.blockingTaskExecutor();
  }

  private <Q extends Message> CompletableFuture<HttpResponse> call(
      ServiceRequestContext ctx, Rpc<Q, ?> rpc, AggregatedHttpRequest body) {
    CompletionStage<? extends Message> result;
    // the call runs with the request's context current, as gRPC calls do: the permission check
    // reads it
    try (SafeCloseable ignored = ctx.push()) {
      JsonCalls.mark(ctx);
      MediaType type = body.contentType();
      if (type != null && !type.is(MediaType.JSON) && !type.subtype().endsWith("json")) {
        throw InvalidFieldException.of("Content-Type", type + " (expected: application/json)");
      }
      result = rpc.call().apply(json.read(body.contentUtf8(), rpc.requestPrototype()));
    } catch (RuntimeException e) {
      result = CompletableFuture.failedFuture(e);
    }
    return result
        .handle(
            (message, error) -> {
              if (error != null) {
                return ErrorResponses.json(ErrorMapping.of(error));
              }
              return HttpResponse.of(
                  HttpStatus.OK, MediaType.JSON_UTF_8, HttpData.wrap(json.printUtf8(message)));
            })
        .toCompletableFuture();
  }

  /**
   * The {@code service} tag of an RPC's metrics: its proto package and {@code http} ({@code
   * varve.timeseries.v1.http}), beside the gRPC services' full names.
   */
  private static String metricsService(Rpc<?, ?> rpc) {
    String service = rpc.method().getServiceName();
    return service.substring(0, service.lastIndexOf('.') + 1) + "http";
  }

  /** An answer of the HTTP layer's own, its code from the status ({@link ErrorMapping#codeOf}). */
  private static HttpResponse error(HttpStatus status, String message) {
    return ErrorResponses.response(status, ErrorMapping.codeOf(status).name(), "", message);
  }
}
