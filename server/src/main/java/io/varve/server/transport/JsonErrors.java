package io.varve.server.transport;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpResponse;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.common.MediaType;
import com.linecorp.armeria.common.RequestHeaders;
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

  static HttpResponse response(HttpStatus status, String code, String field, String message) {
    return HttpResponse.of(status, MediaType.JSON_UTF_8, body(code, field, message));
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

  @Override
  public HttpResponse onServiceException(ServiceRequestContext ctx, Throwable cause) {
    return null;
  }

  @Override
  public AggregatedHttpResponse renderStatus(ServiceRequestContext ctx, ServiceConfig config, RequestHeaders headers,
      HttpStatus status, String description, Throwable cause) {
    // no headers: the request was refused while decoding (an invalid path such as /v1/../health or
    // one with NUL), before its path was known; it is answered with the JSON body too, as if under
    // /v1/, since returning null here would leave the connection closed without a response
    if (headers != null && !headers.path().startsWith("/v1/")) {
      return null;
    }
    String code;
    String message;
    if (status == HttpStatus.REQUEST_ENTITY_TOO_LARGE) {
      code = "RESOURCE_EXHAUSTED";
      message = "request body larger than " + maxRequestBytes + " bytes (the server's maxRequestBytes)";
    } else if (status == HttpStatus.BAD_REQUEST || status == HttpStatus.NOT_FOUND) {
      code = status == HttpStatus.BAD_REQUEST ? "INVALID_ARGUMENT" : "NOT_FOUND";
      message = headers != null && status == HttpStatus.NOT_FOUND
          ? "no RPC at " + headers.path() + " (expected: POST /v1/<RpcName>, e.g. /v1/ReadEventRecords)"
          : (description != null ? description : status.reasonPhrase()) + (headers != null ? ""
          : " (expected: a request path such as /v1/ReadEventRecords, without dot segments or control characters)");
    } else {
      code = status.codeAsText();
      message = description != null ? description : status.reasonPhrase();
    }
    return AggregatedHttpResponse.of(status, MediaType.JSON_UTF_8, body(code, "", message));
  }
}
