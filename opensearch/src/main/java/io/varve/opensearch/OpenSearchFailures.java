package io.varve.opensearch;

import io.varve.core.error.Causes;
import io.varve.core.error.DefectException;
import io.varve.core.error.StorageException;
import io.varve.core.error.StorageException.Reason;
import io.varve.core.error.StorageException.Store;
import io.varve.core.error.VarveException;
import java.io.IOException;
import java.net.SocketTimeoutException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.opensearch.client.opensearch._types.OpenSearchException;
import org.opensearch.client.transport.httpclient5.ResponseException;

/**
 * Translates the OpenSearch client's exceptions into core's {@link StorageException}s at the
 * module's boundary, by what a caller can do: an answer's HTTP status says it when there is one
 * (429 overloaded; 408 and 504 timed out; other 5xx unavailable; 401, 403 and 404 refused as the
 * cluster's grants or indices stand; any other 4xx is a request Varve should not have built, so
 * internal); without one, a socket timeout is a timeout and any other I/O failure (connection
 * refused or reset) leaves the store unavailable.
 */
final class OpenSearchFailures {

  private OpenSearchFailures() {}

  /**
   * The failure as core sees it: a client failure classified, a {@link VarveException} as it is,
   * anything else (a defect) an INTERNAL {@link VarveException} with it as its cause.
   */
  static VarveException classify(Throwable error) {
    Throwable t = Causes.unwrap(error);
    if (t instanceof VarveException e) {
      return e;
    }
    if (!(t instanceof OpenSearchException || t instanceof IOException)) {
      return new DefectException(t);
    }
    int status = status(t);
    Reason reason = status > 0 ? reason(status) : timedOut(t) ? Reason.TIMEOUT : Reason.UNAVAILABLE;
    return new StorageException(Store.INDEX, reason, String.valueOf(t.getMessage()), t);
  }

  /** What an HTTP status of an OpenSearch answer means to a caller. */
  static Reason reason(int status) {
    if (status == 429) {
      return Reason.OVERLOADED;
    }
    if (status == 408 || status == 504) {
      return Reason.TIMEOUT;
    }
    if (status >= 500) {
      return Reason.UNAVAILABLE;
    }
    if (status == 401 || status == 403 || status == 404) {
      return Reason.REFUSED;
    }
    return Reason.INTERNAL;
  }

  /** The HTTP status of the answer behind a failure, or 0 when there was none. */
  static int status(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof OpenSearchException e) {
        return e.status();
      }
      if (t instanceof ResponseException e) {
        return e.status();
      }
    }
    return 0;
  }

  private static boolean timedOut(Throwable failure) {
    for (Throwable t = failure; t != null; t = t.getCause()) {
      if (t instanceof SocketTimeoutException
          || t instanceof java.util.concurrent.TimeoutException) {
        return true;
      }
    }
    return false;
  }

  /** {@code stage}, its failure {@linkplain #classify classified}. */
  static <T> CompletionStage<T> translated(CompletionStage<T> stage) {
    return stage.exceptionallyCompose(error -> CompletableFuture.failedFuture(classify(error)));
  }
}
