package io.varve.core.index;

/**
 * The index store could not be reached, timed out, or was overloaded: the request may succeed when
 * retried later. Other index store failures are internal errors.
 */
public final class IndexStoreUnavailableException extends RuntimeException {

  public IndexStoreUnavailableException(String message, Throwable cause) {
    super(message, cause);
  }
}
