package io.varve.cassandra.failure;

import com.datastax.oss.driver.api.core.AllNodesFailedException;
import com.datastax.oss.driver.api.core.DriverException;
import com.datastax.oss.driver.api.core.DriverExecutionException;
import com.datastax.oss.driver.api.core.DriverTimeoutException;
import com.datastax.oss.driver.api.core.InvalidKeyspaceException;
import com.datastax.oss.driver.api.core.NodeUnavailableException;
import com.datastax.oss.driver.api.core.RequestThrottlingException;
import com.datastax.oss.driver.api.core.connection.BusyConnectionException;
import com.datastax.oss.driver.api.core.connection.ClosedConnectionException;
import com.datastax.oss.driver.api.core.connection.ConnectionInitException;
import com.datastax.oss.driver.api.core.connection.CrcMismatchException;
import com.datastax.oss.driver.api.core.connection.HeartbeatException;
import com.datastax.oss.driver.api.core.servererrors.BootstrappingException;
import com.datastax.oss.driver.api.core.servererrors.CASWriteUnknownException;
import com.datastax.oss.driver.api.core.servererrors.CDCWriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.OverloadedException;
import com.datastax.oss.driver.api.core.servererrors.QueryValidationException;
import com.datastax.oss.driver.api.core.servererrors.ReadFailureException;
import com.datastax.oss.driver.api.core.servererrors.ReadTimeoutException;
import com.datastax.oss.driver.api.core.servererrors.ServerError;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import com.datastax.oss.driver.api.core.servererrors.TruncateException;
import com.datastax.oss.driver.api.core.servererrors.UnavailableException;
import com.datastax.oss.driver.api.core.servererrors.WriteFailureException;
import com.datastax.oss.driver.api.core.servererrors.WriteTimeoutException;
import io.varve.core.error.Causes;
import io.varve.core.error.DefectException;
import io.varve.core.error.StorageException;
import io.varve.core.error.StorageException.Reason;
import io.varve.core.error.StorageException.Store;
import io.varve.core.error.VarveException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Translates the driver's exceptions into core's {@link StorageException}s at the module's
 * boundary: every stage a public class of this module returns fails only with a {@link
 * VarveException}, so that no caller needs to know the driver.
 *
 * <p>The driver's hierarchy is grouped by what a caller can do ({@link Reason}): a node, replica or
 * connection that cannot take the request is {@code UNAVAILABLE} (replica-side read and write
 * failures too: another attempt meets other replicas or a recovered one); a timeout on the client
 * or on a coordinator, and a lightweight transaction of unknown outcome, are {@code TIMEOUT}; a
 * node or the driver refusing for load is {@code OVERLOADED}; a statement refused as the schema or
 * the grants stand (a table dropped behind Varve's back) is {@code REFUSED}; a syntax or protocol
 * error, or anything unknown, is {@code INTERNAL}.
 */
public final class CqlFailures {

  private CqlFailures() {}

  /**
   * The failure as core sees it: a driver exception classified, a {@link VarveException} as it is,
   * anything else (a defect) an INTERNAL {@link VarveException} with it as its cause.
   */
  public static VarveException classify(Throwable error) {
    Throwable t = Causes.unwrap(error);
    if (t instanceof DriverExecutionException && t.getCause() != null) {
      t = t.getCause();
    }
    if (t instanceof VarveException e) {
      return e;
    }
    if (t instanceof DriverException e) {
      return new StorageException(Store.PRIMARY, reason(e), String.valueOf(e.getMessage()), e);
    }
    return new DefectException(t);
  }

  /** What a driver exception means to a caller. */
  static Reason reason(DriverException e) {
    if (e instanceof DriverTimeoutException
        || e instanceof ReadTimeoutException
        || e instanceof WriteTimeoutException
        || e instanceof CASWriteUnknownException) {
      return Reason.TIMEOUT;
    }
    if (e instanceof OverloadedException
        || e instanceof RequestThrottlingException
        || e instanceof BusyConnectionException) {
      return Reason.OVERLOADED;
    }
    if (e instanceof UnavailableException
        || e instanceof AllNodesFailedException
        || e instanceof NodeUnavailableException
        || e instanceof BootstrappingException
        || e instanceof ClosedConnectionException
        || e instanceof HeartbeatException
        || e instanceof ConnectionInitException
        || e instanceof CrcMismatchException
        || e instanceof ReadFailureException
        || e instanceof WriteFailureException
        || e instanceof ServerError
        || e instanceof TruncateException
        || e instanceof CDCWriteFailureException) {
      return Reason.UNAVAILABLE;
    }
    if (e instanceof SyntaxError) {
      return Reason.INTERNAL;
    }
    if (e instanceof QueryValidationException || e instanceof InvalidKeyspaceException) {
      return Reason.REFUSED;
    }
    return Reason.INTERNAL;
  }

  /** {@code stage}, its failure {@linkplain #classify classified}. */
  public static <T> CompletionStage<T> translated(CompletionStage<T> stage) {
    return stage.exceptionallyCompose(error -> CompletableFuture.failedFuture(classify(error)));
  }

  /**
   * The stage {@code call} returns, or its failure (thrown or completed) {@linkplain #classify
   * classified}.
   */
  public static <T> CompletionStage<T> translated(Supplier<? extends CompletionStage<T>> call) {
    try {
      return translated(call.get());
    } catch (RuntimeException e) {
      return CompletableFuture.failedFuture(classify(e));
    }
  }
}
