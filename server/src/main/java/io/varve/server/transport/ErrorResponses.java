package io.varve.server.transport;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpData;
import com.linecorp.armeria.common.HttpHeaderNames;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.RequestHeaders;
import com.linecorp.armeria.common.ResponseHeaders;
import com.linecorp.armeria.common.ResponseHeadersBuilder;
import com.linecorp.armeria.common.grpc.protocol.StatusMessageEscaper;
import com.linecorp.armeria.server.RequestTimeoutException;
import com.linecorp.armeria.server.ServerErrorHandler;
import com.linecorp.armeria.server.ServiceConfig;
import com.linecorp.armeria.server.ServiceRequestContext;
import io.varve.server.error.ErrorMapping;

/**
 * The error answers of both protocols, rendered from {@link ErrorMapping}'s one table: the JSON
 * error body of the HTTP API, {@code {"error": {"code", "field", "message"}}}, and the gRPC status
 * of a trailers-only response, also for failures raised before a request reaches the API (body too
 * large, not authenticated, refused at admission). Armeria's hooks call it: as the server's {@link
 * ServerErrorHandler} for the statuses its HTTP layer answers; the gRPC layer's own failures go
 * through {@link ErrorMapping#grpcLayerFailure}.
 */
final class ErrorResponses implements ServerErrorHandler {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final int maxRequestBytes;

  ErrorResponses(int maxRequestBytes) {
    this.maxRequestBytes = maxRequestBytes;
  }

  /** Seconds a client refused with 429 is asked to wait ({@code Retry-After}). */
  static final String RETRY_AFTER_SECONDS = "1";

  static HttpResponse response(HttpStatus status, String code, String field, String message) {
    return aggregated(status, code, field, message).toHttpResponse();
  }

  /** {@code failure} as the JSON error body, with its HTTP status. */
  static HttpResponse json(ErrorMapping.Failure failure) {
    return response(
        failure.httpStatus(), failure.kind().name(), failure.field(), failure.message());
  }

  private static AggregatedHttpResponse aggregated(
      HttpStatus status, String code, String field, String message) {
    ResponseHeadersBuilder headers =
        ResponseHeaders.builder(status).contentType(MediaType.JSON_UTF_8);
    if (status == HttpStatus.TOO_MANY_REQUESTS) {
      headers.add(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }
    return AggregatedHttpResponse.of(headers.build(), HttpData.ofUtf8(body(code, field, message)));
  }

  static String body(String code, String field, String message) {
    ObjectNode body = MAPPER.createObjectNode();
    ObjectNode error = body.putObject("error");
    error.put("code", code);
    if (!field.isEmpty()) {
      error.put("field", field);
    }
    error.put("message", message);
    return body.toString();
  }

  /**
   * The limit the refused body crossed: its route's (KeyValue requests carry large values and have
   * their own), named by the options that set it.
   */
  private String tooLarge(ServiceRequestContext ctx) {
    long limit =
        ctx != null && ctx.maxRequestLength() > 0 ? ctx.maxRequestLength() : maxRequestBytes;
    String source =
        limit > maxRequestBytes + 1024L * 1024
            ? "a KeyValue request's limit, from kv.chunks.maxValueBytes, see"
                + " docs/key-value.md#limits"
            : "timeseries.limits.maxRequestBytes";
    return "request body larger than " + limit + " bytes (" + source + ")";
  }

  @Override
  public HttpResponse onServiceException(ServiceRequestContext ctx, Throwable cause) {
    return null;
  }

  @Override
  public AggregatedHttpResponse renderStatus(
      ServiceRequestContext ctx,
      ServiceConfig config,
      RequestHeaders headers,
      HttpStatus status,
      String description,
      Throwable cause) {
    // no headers: the request was refused while decoding (an invalid path such as /v1/../health or
    // one with NUL), before its path was known; it is answered with the JSON body too, as if under
    // /v1/, since returning null here would leave the connection closed without a response
    // a gRPC call refused by the HTTP layer (a message over the request length, the timeout) gets a
    // gRPC status, not an HTTP error page a gRPC client can only report as UNKNOWN
    boolean grpc =
        headers != null
            && headers.contentType() != null
            && headers.contentType().subtype().startsWith("grpc");
    if (headers != null && !grpc && !headers.path().startsWith("/v1/")) {
      return null;
    }
    String message;
    if (status == HttpStatus.REQUEST_ENTITY_TOO_LARGE) {
      message = tooLarge(ctx);
    } else if (status == HttpStatus.REQUEST_TIMEOUT || cause instanceof RequestTimeoutException) {
      message =
          "no answer within the server's request timeout of "
              + Transports.REQUEST_TIMEOUT.toSeconds()
              + " s; the request may or may not have been applied (writes are idempotent: retrying is safe)";
    } else if (status == HttpStatus.BAD_REQUEST || status == HttpStatus.NOT_FOUND) {
      message =
          headers != null && status == HttpStatus.NOT_FOUND
              ? "no RPC at "
                  + headers.path()
                  + " (expected: POST /v1/<RpcName>, e.g. /v1/ReadEventRecords)"
              : (description != null ? description : status.reasonPhrase())
                  + (headers != null
                      ? ""
                      : " (expected: a request path such as /v1/ReadEventRecords, without dot segments or control characters)");
    } else {
      message = description != null ? description : status.reasonPhrase();
    }
    // one status for the server's timeout, whether it struck while the body was arriving (Armeria's
    // 408) or while the request was served (Armeria's 503): 504, DEADLINE_EXCEEDED
    boolean timeout =
        status == HttpStatus.REQUEST_TIMEOUT || cause instanceof RequestTimeoutException;
    HttpStatus shown = timeout ? HttpStatus.GATEWAY_TIMEOUT : status;
    io.grpc.Status.Code code = ErrorMapping.codeOf(shown);
    if (grpc) {
      return grpc(io.grpc.Status.fromCode(code).withDescription(message), null, false);
    }
    return aggregated(shown, code.name(), "", message);
  }

  /**
   * A trailers-only gRPC response: HTTP 200 carrying the status in {@code grpc-status} and its
   * description in {@code grpc-message} (percent-encoded as gRPC requires, by Armeria's escaper).
   *
   * @param type the request's content type, kept in the answer; null for {@code application/grpc}
   * @param retryAfter whether to ask the caller to wait ({@code Retry-After}), for a refusal at
   *     capacity
   */
  static AggregatedHttpResponse grpc(io.grpc.Status status, MediaType type, boolean retryAfter) {
    ResponseHeadersBuilder headers =
        ResponseHeaders.builder(HttpStatus.OK)
            .contentType(type != null ? type : MediaType.parse("application/grpc"))
            .add("grpc-status", Integer.toString(status.getCode().value()));
    if (status.getDescription() != null) {
      headers.add("grpc-message", StatusMessageEscaper.escape(status.getDescription()));
    }
    if (retryAfter) {
      headers.add(HttpHeaderNames.RETRY_AFTER, RETRY_AFTER_SECONDS);
    }
    return AggregatedHttpResponse.of(headers.build());
  }
}
