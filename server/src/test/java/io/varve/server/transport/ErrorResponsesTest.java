package io.varve.server.transport;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.linecorp.armeria.common.AggregatedHttpResponse;
import com.linecorp.armeria.common.HttpMethod;
import com.linecorp.armeria.common.HttpRequest;
import com.linecorp.armeria.common.HttpStatus;
import com.linecorp.armeria.server.RequestTimeoutException;
import com.linecorp.armeria.server.ServiceRequestContext;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ErrorResponsesTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  static Stream<Arguments> statuses() {
    return Stream.of(
        Arguments.of(HttpStatus.INTERNAL_SERVER_ERROR, null, 500, "INTERNAL"),
        Arguments.of(HttpStatus.SERVICE_UNAVAILABLE, null, 503, "UNAVAILABLE"),
        Arguments.of(
            HttpStatus.SERVICE_UNAVAILABLE,
            RequestTimeoutException.get(),
            504,
            "DEADLINE_EXCEEDED"),
        Arguments.of(HttpStatus.REQUEST_TIMEOUT, null, 504, "DEADLINE_EXCEEDED"),
        Arguments.of(HttpStatus.REQUEST_ENTITY_TOO_LARGE, null, 413, "RESOURCE_EXHAUSTED"),
        Arguments.of(HttpStatus.TOO_MANY_REQUESTS, null, 429, "RESOURCE_EXHAUSTED"),
        Arguments.of(HttpStatus.valueOf(431), null, 431, "RESOURCE_EXHAUSTED"),
        Arguments.of(HttpStatus.BAD_REQUEST, null, 400, "INVALID_ARGUMENT"),
        Arguments.of(HttpStatus.METHOD_NOT_ALLOWED, null, 405, "INVALID_ARGUMENT"),
        Arguments.of(HttpStatus.NOT_FOUND, null, 404, "NOT_FOUND"),
        Arguments.of(HttpStatus.UNAUTHORIZED, null, 401, "UNAUTHENTICATED"),
        Arguments.of(HttpStatus.BAD_GATEWAY, null, 502, "INTERNAL"),
        Arguments.of(HttpStatus.valueOf(418), null, 418, "UNKNOWN"));
  }

  @ParameterizedTest
  @MethodSource("statuses")
  void an_error_status_is_rendered_with_a_grpc_code_name_never_a_number(
      HttpStatus status, Throwable cause, int shown, String code) throws Exception {
    ServiceRequestContext ctx =
        ServiceRequestContext.of(HttpRequest.of(HttpMethod.POST, "/v1/ReadEventRecords"));

    AggregatedHttpResponse response =
        new ErrorResponses(1024)
            .renderStatus(ctx, ctx.config(), ctx.request().headers(), status, null, cause);

    JsonNode body = JSON.readTree(response.contentUtf8());
    assertThat(response.status().code()).isEqualTo(shown);
    assertThat(body.path("error").path("code").asText()).isEqualTo(code);
    assertThat(body.path("error").path("message").asText()).isNotEmpty();
  }

  @ParameterizedTest
  @MethodSource("statuses")
  void a_refusal_at_capacity_asks_to_retry_after_a_second(
      HttpStatus status, Throwable cause, int shown, String code) {
    AggregatedHttpResponse response =
        ErrorResponses.response(status, code, "", "m").aggregate().join();

    assertThat(response.headers().get("retry-after")).isEqualTo(shown == 429 ? "1" : null);
  }

  @ParameterizedTest
  @MethodSource("statuses")
  void a_grpc_call_refused_by_the_http_layer_gets_a_grpc_status(
      HttpStatus status, Throwable cause, int shown, String code) {
    HttpRequest grpc =
        HttpRequest.of(
            com.linecorp.armeria.common.RequestHeaders.builder(
                    HttpMethod.POST, "/varve.timeseries.v1.TimeSeries/WriteEventRecordsSync")
                .contentType(com.linecorp.armeria.common.MediaType.parse("application/grpc+proto"))
                .build());
    ServiceRequestContext ctx = ServiceRequestContext.of(grpc);

    AggregatedHttpResponse response =
        new ErrorResponses(1024)
            .renderStatus(ctx, ctx.config(), grpc.headers(), status, "too big: 100% of it", cause);

    assertThat(response.status().code()).isEqualTo(200);
    assertThat(response.headers().get("grpc-status"))
        .isEqualTo(Integer.toString(io.grpc.Status.Code.valueOf(code).value()));
    assertThat(response.headers().get("grpc-message")).isNotEmpty().doesNotContain("100% ");
  }
}
