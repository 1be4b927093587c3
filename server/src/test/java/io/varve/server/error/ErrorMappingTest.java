package io.varve.server.error;

import static org.assertj.core.api.Assertions.assertThat;

import com.linecorp.armeria.common.HttpStatus;
import io.grpc.Status;
import io.varve.core.error.DefectException;
import io.varve.core.error.StorageException;
import io.varve.core.error.StorageException.Reason;
import io.varve.core.error.StorageException.Store;
import io.varve.core.error.VarveException;
import io.varve.core.error.VarveException.Kind;
import io.varve.core.event.Event;
import io.varve.core.write.Rejection;
import java.util.List;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Storage failures, classified by their adapters, as a whole request and as one event of a write
 * see them: one code and one piece of advice for both.
 */
class ErrorMappingTest {

  @ParameterizedTest
  @CsvSource({
    "PRIMARY, TIMEOUT, UNAVAILABLE, 503, '; retrying is safe'",
    "PRIMARY, UNAVAILABLE, UNAVAILABLE, 503, '; retrying is safe'",
    "PRIMARY, OVERLOADED, UNAVAILABLE, 503, '; retrying is safe'",
    "PRIMARY, REFUSED, FAILED_PRECONDITION, 412, '; retrying as is fails the same way until an operator repairs'",
    "PRIMARY, INTERNAL, INTERNAL, 500, ''",
    "INDEX, TIMEOUT, UNAVAILABLE, 503, '; retry later (writes are not affected)'",
    "INDEX, REFUSED, FAILED_PRECONDITION, 412, '; retrying as is fails the same way until an operator repairs'"
  })
  void a_storage_failure_gets_the_code_and_advice_of_its_kind(
      Store store, Reason reason, Kind kind, int http, String advice) {
    StorageException failure = new StorageException(store, reason, "the store's words", null);

    ErrorMapping.Failure mapped = ErrorMapping.of(new CompletionException(failure));

    assertThat(mapped.kind()).isEqualTo(kind);
    assertThat(mapped.httpStatus().code()).isEqualTo(http);
    assertThat(mapped.grpcStatus().getCode()).isEqualTo(Status.Code.valueOf(kind.name()));
    assertThat(mapped.message()).startsWith(failure.getMessage() + advice);
    assertThat(mapped.message().substring(failure.getMessage().length()))
        .doesNotContain(kind == Kind.UNAVAILABLE ? "repairs" : "retrying is safe");
  }

  @ParameterizedTest
  @org.junit.jupiter.params.provider.EnumSource(Kind.class)
  void each_kind_has_one_code_in_both_protocols_and_its_http_status_maps_back_to_it(Kind kind) {
    ErrorMapping.Failure failure = new ErrorMapping.Failure(kind, "", "m");

    assertThat(failure.grpcStatus().getCode().name()).isEqualTo(kind.name());
    assertThat(ErrorMapping.codeOf(failure.httpStatus()).name()).isEqualTo(kind.name());
  }

  @Test
  void the_statuses_only_the_http_layer_answers_get_a_grpc_code_name() {
    assertThat(ErrorMapping.codeOf(com.linecorp.armeria.common.HttpStatus.METHOD_NOT_ALLOWED))
        .isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(ErrorMapping.codeOf(com.linecorp.armeria.common.HttpStatus.REQUEST_TIMEOUT))
        .isEqualTo(Status.Code.DEADLINE_EXCEEDED);
    assertThat(ErrorMapping.codeOf(com.linecorp.armeria.common.HttpStatus.REQUEST_ENTITY_TOO_LARGE))
        .isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(ErrorMapping.codeOf(com.linecorp.armeria.common.HttpStatus.NOT_IMPLEMENTED))
        .isEqualTo(Status.Code.UNIMPLEMENTED);
    assertThat(ErrorMapping.codeOf(com.linecorp.armeria.common.HttpStatus.BAD_GATEWAY))
        .isEqualTo(Status.Code.INTERNAL);
    assertThat(ErrorMapping.codeOf(com.linecorp.armeria.common.HttpStatus.valueOf(418)))
        .isEqualTo(Status.Code.UNKNOWN);
  }

  @Test
  void one_event_failing_in_storage_carries_the_same_code_and_advice_as_a_whole_request() {
    StorageException dropped =
        new StorageException(Store.PRIMARY, Reason.REFUSED, "unconfigured table slice_1", null);
    ErrorMapping.Failure request = ErrorMapping.of(dropped);
    ErrorMapping.Failure event = request.ofEvent("events[2] (timeSeriesId=s, eventId=e)");

    assertThat(event.kind()).isEqualTo(Kind.FAILED_PRECONDITION).isEqualTo(request.kind());
    assertThat(event.message())
        .isEqualTo("events[2] (timeSeriesId=s, eventId=e) was not written: " + request.message())
        .doesNotContain("retrying is safe");

    StorageException timeout =
        new StorageException(Store.PRIMARY, Reason.TIMEOUT, "write timed out", null);
    assertThat(ErrorMapping.of(timeout).ofEvent("events[0]").message())
        .endsWith("; retrying is safe");
    assertThat(ErrorMapping.of(timeout).ofEvent("events[0]").kind()).isEqualTo(Kind.UNAVAILABLE);
  }

  @Test
  void a_rejection_keeps_its_kind_and_message() {
    Event event = new Event("s", 0, "e", List.of());
    ErrorMapping.Failure failure =
        ErrorMapping.of(
            new Rejection(
                1,
                event,
                Kind.UNAVAILABLE,
                "events[1] (...) falls in no time slice yet; slices are being created, retry shortly"));

    assertThat(failure.kind()).isEqualTo(Kind.UNAVAILABLE);
    assertThat(failure.httpStatus()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
    assertThat(failure.message()).endsWith("retry shortly");
  }

  @Test
  void anything_unclassified_is_internal() {
    ErrorMapping.Failure failure = ErrorMapping.of(new IllegalStateException("bug"));
    assertThat(failure.kind()).isEqualTo(Kind.INTERNAL);
    assertThat(failure.message())
        .matches("internal error \\(incident [0-9a-f]{8}; the server's log has its details\\)");
  }

  @Test
  void a_defect_wrapped_by_a_store_adapter_is_answered_without_its_text() {
    ErrorMapping.Failure failure =
        ErrorMapping.of(new DefectException(new NullPointerException("field x of Y")));
    assertThat(failure.kind()).isEqualTo(Kind.INTERNAL);
    assertThat(failure.message()).startsWith("internal error (incident ").doesNotContain("Null");
  }

  @Test
  void an_internal_failure_of_varve_s_own_keeps_its_message() {
    // written for the caller (a row no version of Varve wrote, naming its key)
    ErrorMapping.Failure failure =
        ErrorMapping.of(
            new VarveException(
                Kind.INTERNAL,
                "key 0x6b6579 cannot be read",
                new IllegalArgumentException("unknown version")));
    assertThat(failure.message()).isEqualTo("key 0x6b6579 cannot be read");
  }

  @Test
  void a_jvm_error_is_answered_without_its_text() {
    for (Throwable error :
        new Throwable[] {
          new OutOfMemoryError("Java heap space"),
          new CompletionException(new OutOfMemoryError("Java heap space")),
          new VarveException(
              Kind.INTERNAL,
              "internal error: java.lang.OutOfMemoryError: Java heap space",
              new OutOfMemoryError("Java heap space"))
        }) {
      ErrorMapping.Failure failure = ErrorMapping.of(error);
      assertThat(failure.kind()).isEqualTo(Kind.INTERNAL);
      assertThat(failure.httpStatus()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
      assertThat(failure.message()).doesNotContain("OutOfMemory", "java.", "heap");
      assertThat(failure.grpcStatus().getDescription()).isEqualTo(failure.message());
    }
  }

  @Test
  void a_grpc_layer_status_keeps_its_code_without_a_class_name() {
    Status status =
        ErrorMapping.grpcLayerFailure(
            Status.INTERNAL
                .withDescription(
                    "com.linecorp.armeria.common.grpc.protocol.ArmeriaMessageDeframer: Can't"
                        + " decode compressed frame as compression not configured.")
                .asRuntimeException());

    assertThat(status.getCode()).isEqualTo(Status.Code.INTERNAL);
    assertThat(status.getDescription())
        .isEqualTo("Can't decode compressed frame as compression not configured.");
    assertThat(
            ErrorMapping.grpcLayerFailure(
                Status.CANCELLED.withDescription("the call was cancelled").asRuntimeException()))
        .as("no class name: gRPC's own mapping")
        .isNull();
  }

  @Test
  void a_transport_failure_of_any_kind_is_mapped_as_any_other() {
    Status status =
        ErrorMapping.grpcLayerFailure(
            new CompletionException(
                new VarveException(Kind.RESOURCE_EXHAUSTED, "body: a message of 9 bytes")));

    assertThat(status.getCode()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
    assertThat(status.getDescription()).isEqualTo("body: a message of 9 bytes");
  }
}
