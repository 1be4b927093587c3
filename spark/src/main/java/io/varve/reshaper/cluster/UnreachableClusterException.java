package io.varve.reshaper.cluster;

/**
 * A side's cluster could not be reached (no node answered, a connection refused or timed out): an
 * error of the environment, not of the job file, so the job exits with the status of a fatal error
 * and can simply be run again; nothing was written.
 */
public final class UnreachableClusterException extends RuntimeException {

  UnreachableClusterException(String message, Throwable cause) {
    super(message, cause);
  }
}
