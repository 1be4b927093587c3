package io.varve.opensearch;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.error.StorageException;
import io.varve.core.error.StorageException.Reason;
import io.varve.core.error.VarveException;
import io.varve.core.error.VarveException.Kind;
import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.opensearch.client.opensearch._types.ErrorResponse;
import org.opensearch.client.opensearch._types.OpenSearchException;
import org.opensearch.client.transport.TransportException;

/** The OpenSearch client's failures, as the client raises them, and what a caller of Varve sees. */
class OpenSearchFailuresTest {

  static OpenSearchException answer(int status, String type) {
    return new OpenSearchException(
        ErrorResponse.of(
            r -> r.status(status).error(e -> e.type(type).reason("reason of " + type))));
  }

  @ParameterizedTest
  @CsvSource({
    "429, es_rejected_execution_exception, OVERLOADED",
    "503, search_phase_execution_exception, UNAVAILABLE",
    "500, exception, UNAVAILABLE",
    "504, timeout_exception, TIMEOUT",
    "408, timeout_exception, TIMEOUT",
    "404, index_not_found_exception, REFUSED",
    "403, security_exception, REFUSED",
    "401, security_exception, REFUSED",
    "400, illegal_argument_exception, INTERNAL",
    "400, parsing_exception, INTERNAL"
  })
  void answers_are_classified_by_their_http_status(int status, String type, Reason reason) {
    OpenSearchException answer = answer(status, type);
    VarveException failure = OpenSearchFailures.classify(new CompletionException(answer));

    assertThat(failure).isInstanceOf(StorageException.class).hasCause(answer);
    StorageException storage = (StorageException) failure;
    assertThat(storage.reason()).isEqualTo(reason);
    assertThat(storage.store()).isEqualTo(StorageException.Store.INDEX);
    assertThat(storage.getMessage()).startsWith("the index store ").contains(type);
  }

  @Test
  void
      without_an_answer_a_socket_timeout_is_a_timeout_and_other_io_failures_leave_the_store_unavailable() {
    assertThat(
            ((StorageException)
                    OpenSearchFailures.classify(new ConnectException("Connection refused")))
                .reason())
        .isEqualTo(Reason.UNAVAILABLE);
    assertThat(
            ((StorageException)
                    OpenSearchFailures.classify(new SocketTimeoutException("Read timed out")))
                .reason())
        .isEqualTo(Reason.TIMEOUT);
    StorageException wrapped =
        (StorageException)
            OpenSearchFailures.classify(
                new TransportException(
                    "request failed", new SocketTimeoutException("30,000 milliseconds timeout")));
    assertThat(wrapped.reason()).isEqualTo(Reason.TIMEOUT);
    assertThat(wrapped.retryable()).isTrue();
  }

  @Test
  void varve_failures_pass_as_they_are_and_defects_are_internal_not_storage() {
    VarveException invalid = VarveException.failedPrecondition("no");
    assertThat(OpenSearchFailures.classify(new CompletionException(invalid))).isSameAs(invalid);
    VarveException defect =
        OpenSearchFailures.classify(new ClassCastException("Map cannot be cast to List"));
    assertThat(defect).isNotInstanceOf(StorageException.class);
    assertThat(defect.kind()).isEqualTo(Kind.INTERNAL);
  }
}
