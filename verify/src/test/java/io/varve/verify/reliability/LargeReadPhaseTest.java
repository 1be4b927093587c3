package io.varve.verify.reliability;

import static org.assertj.core.api.Assertions.assertThat;

import io.grpc.Status;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class LargeReadPhaseTest {

  @ParameterizedTest
  @CsvSource({
    "OK, 200",
    "RESOURCE_EXHAUSTED, 429",
    "INTERNAL, 500",
    "UNKNOWN, 500",
    "DATA_LOSS, 500",
    "UNAVAILABLE, 503",
    "DEADLINE_EXCEEDED, 504",
    "INVALID_ARGUMENT, 400"
  })
  void a_grpc_status_counts_as_the_http_status_the_json_binding_answers(
      Status.Code code, int http) {
    assertThat(LargeReadPhase.httpStatusOf(Status.fromCode(code))).isEqualTo(http);
  }
}
