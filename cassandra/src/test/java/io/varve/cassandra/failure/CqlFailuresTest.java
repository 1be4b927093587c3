package io.varve.cassandra.failure;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverExecutionException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.NoNodeAvailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.DefaultWriteType;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.ProtocolError;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.UnauthorizedException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.varve.core.error.StorageException;
import io.varve.core.error.StorageException.Reason;
import io.varve.core.error.VarveException;
import io.varve.core.error.VarveException.Kind;
import java.io.IOException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The driver's exceptions, constructed as the driver raises them (most cannot be produced on demand
 * by a single healthy node), and the kind a caller of Varve sees for each.
 */
class CqlFailuresTest {

  static Stream<Arguments> driverExceptions() {
    return Stream.of(
        Arguments.of(new DriverTimeoutException("Query timed out after PT5S"), Reason.TIMEOUT),
        Arguments.of(
            new ReadTimeoutException(null, DefaultConsistencyLevel.QUORUM, 1, 2, true),
            Reason.TIMEOUT),
        Arguments.of(
            new WriteTimeoutException(
                null, DefaultConsistencyLevel.QUORUM, 1, 2, DefaultWriteType.BATCH),
            Reason.TIMEOUT),
        Arguments.of(
            new CASWriteUnknownException(null, DefaultConsistencyLevel.SERIAL, 1, 2),
            Reason.TIMEOUT),
        Arguments.of(
            new UnavailableException(null, DefaultConsistencyLevel.QUORUM, 2, 1),
            Reason.UNAVAILABLE),
        Arguments.of(new NoNodeAvailableException(), Reason.UNAVAILABLE),
        Arguments.of(new BootstrappingException(null), Reason.UNAVAILABLE),
        Arguments.of(
            new ClosedConnectionException("Lost connection to remote peer"), Reason.UNAVAILABLE),
        Arguments.of(
            new ReadFailureException(null, DefaultConsistencyLevel.ONE, 0, 1, 1, false, Map.of()),
            Reason.UNAVAILABLE),
        Arguments.of(new ServerError(null, "java.lang.OutOfMemoryError"), Reason.UNAVAILABLE),
        Arguments.of(new OverloadedException(null), Reason.OVERLOADED),
        Arguments.of(new BusyConnectionException(2048), Reason.OVERLOADED),
        Arguments.of(
            new RequestThrottlingException("The session is shutting down"), Reason.OVERLOADED),
        Arguments.of(new InvalidQueryException(null, "unconfigured table slice_1"), Reason.REFUSED),
        Arguments.of(
            new UnauthorizedException(null, "User varve has no MODIFY permission"), Reason.REFUSED),
        Arguments.of(new SyntaxError(null, "line 1:0 no viable alternative"), Reason.INTERNAL),
        Arguments.of(new ProtocolError(null, "Invalid frame"), Reason.INTERNAL));
  }

  @ParameterizedTest
  @MethodSource("driverExceptions")
  void driver_exceptions_are_classified_by_what_a_caller_can_do(
      DriverException driver, Reason reason) {
    VarveException failure = CqlFailures.classify(new CompletionException(driver));

    assertThat(failure).isInstanceOf(StorageException.class).hasCause(driver);
    StorageException storage = (StorageException) failure;
    assertThat(storage.reason()).isEqualTo(reason);
    assertThat(storage.kind()).isEqualTo(reason.kind());
    assertThat(storage.store()).isEqualTo(StorageException.Store.PRIMARY);
    assertThat(storage.getMessage()).startsWith("storage ").contains(driver.getMessage());
  }

  @Test
  void
      timeouts_unavailable_replicas_and_overload_are_retryable_a_dropped_table_and_defects_are_not() {
    assertThat(
            CqlFailures.classify(
                    new WriteTimeoutException(
                        null,
                        DefaultConsistencyLevel.QUORUM,
                        1,
                        2,
                        DefaultWriteType.UNLOGGED_BATCH))
                .kind())
        .isEqualTo(Kind.UNAVAILABLE);
    assertThat(
            ((StorageException)
                    CqlFailures.classify(
                        new UnavailableException(null, DefaultConsistencyLevel.LOCAL_QUORUM, 2, 1)))
                .retryable())
        .isTrue();
    assertThat(((StorageException) CqlFailures.classify(new OverloadedException(null))).retryable())
        .isTrue();
    StorageException dropped =
        (StorageException)
            CqlFailures.classify(new InvalidQueryException(null, "unconfigured table slice_1"));
    assertThat(dropped.retryable()).isFalse();
    assertThat(dropped.kind()).isEqualTo(Kind.FAILED_PRECONDITION);
    assertThat(CqlFailures.classify(new SyntaxError(null, "bad")).kind()).isEqualTo(Kind.INTERNAL);
  }

  @Test
  void a_wrapped_checked_failure_is_classified_by_its_cause() {
    VarveException failure =
        CqlFailures.classify(
            new DriverExecutionException(new DriverTimeoutException("Query timed out after PT5S")));
    assertThat(((StorageException) failure).reason()).isEqualTo(Reason.TIMEOUT);
  }

  @Test
  void varve_failures_pass_as_they_are_and_other_exceptions_are_internal_not_storage() {
    VarveException exists = VarveException.alreadyExists("namespace 'n' already exists");
    assertThat(CqlFailures.classify(new CompletionException(exists))).isSameAs(exists);

    IllegalStateException defect = new IllegalStateException("bug");
    VarveException internal = CqlFailures.classify(defect);
    assertThat(internal).isNotInstanceOf(StorageException.class).hasCause(defect);
    assertThat(internal.kind()).isEqualTo(Kind.INTERNAL);
    assertThat(CqlFailures.classify(new IOException("disk")).kind()).isEqualTo(Kind.INTERNAL);
  }

  @Test
  void
      translated_stages_fail_only_with_varve_exceptions_whether_the_call_throws_or_its_stage_fails() {
    CompletableFuture<Object> failed =
        CqlFailures.translated(CompletableFuture.failedFuture(new OverloadedException(null)))
            .toCompletableFuture();
    assertThat(failed)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(StorageException.class);

    CompletableFuture<Object> thrown =
        CqlFailures.translated(
                () -> {
                  throw new InvalidQueryException(null, "Keyspace ks does not exist");
                })
            .toCompletableFuture();
    assertThat(thrown)
        .failsWithin(Duration.ZERO)
        .withThrowableOfType(ExecutionException.class)
        .havingCause()
        .isInstanceOf(StorageException.class)
        .extracting(e -> ((StorageException) e).reason())
        .isEqualTo(Reason.REFUSED);
  }
}
