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
import com.linecorp.armeria.server.RequestTimeoutException;
import com.linecorp.armeria.server.ServerErrorHandler;
import com.linecorp.armeria.server.ServiceConfig;
import com.linecorp.armeria.server.ServiceRequestContext;

/**
 * The JSON error body of the HTTP API, {@code {"error": {"code", "field", "message"}}}, also for
 * failures raised before a request reaches the API (body too large, not authenticated).
 */
final class JsonErrors implements ServerErrorHandler {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  private final int maxRequestBytes;

  JsonErrors(int maxRequestBytes) {
    this.maxRequestBytes = maxRequestBytes;
  }

  /** Seconds a client refused with 429 is asked to wait ({@code Retry-After}). */
  static final String RETRY_AFTER_SECONDS = "1";

  static HttpResponse response(HttpStatus status, String code, String field, String message) {
    return aggregated(status, code, field, message).toHttpResponse();
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
    if (grpc) {
      return grpcStatus(codeOf(shown), message);
    }
    return aggregated(shown, codeOf(shown), "", message);
  }

  /** A trailers-only gRPC response: HTTP 200 carrying the status in {@code grpc-status}. */
  static AggregatedHttpResponse grpcStatus(String code, String message) {
    return AggregatedHttpResponse.of(
        ResponseHeaders.builder(HttpStatus.OK)
            .contentType(MediaType.parse("application/grpc"))
            .add("grpc-status", Integer.toString(io.grpc.Status.Code.valueOf(code).value()))
            .add("grpc-message", percentEncoded(message))
            .build());
  }

  /** The grpc-message form of a text: UTF-8, bytes outside printable ASCII and '%' as %XX. */
  static String percentEncoded(String text) {
    StringBuilder out = new StringBuilder();
    for (byte b : text.getBytes(java.nio.charset.StandardCharsets.UTF_8)) {
      int c = b & 0xff;
      if (c >= 0x20 && c < 0x7f && c != '%') {
        out.append((char) c);
      } else {
        out.append('%')
            .append(Character.toUpperCase(Character.forDigit(c >> 4, 16)))
            .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
      }
    }
    return out.toString();
  }

  /** The gRPC code name an HTTP status stands for in the error body; never a number. */
  static String codeOf(HttpStatus status) {
    return switch (status.code()) {
      case 400, 405, 415 -> "INVALID_ARGUMENT";
      case 401 -> "UNAUTHENTICATED";
      case 403 -> "PERMISSION_DENIED";
      case 404 -> "NOT_FOUND";
      case 409 -> "ALREADY_EXISTS";
      case 412 -> "FAILED_PRECONDITION";
      case 408, 504 -> "DEADLINE_EXCEEDED";
      case 413, 414, 429, 431 -> "RESOURCE_EXHAUSTED";
      case 501 -> "UNIMPLEMENTED";
      case 503 -> "UNAVAILABLE";
      default -> status.isServerError() ? "INTERNAL" : "UNKNOWN";
    };
  }
}
