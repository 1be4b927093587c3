package io.varve.local;

/**
 * The local Cassandra could not be started, reached or stopped. The message says why and what
 * to do: run the build, free a port, or read the log it quotes.
 */
public final class LocalCassandraException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** An error with a message meant for the person running the node. */
  public LocalCassandraException(String message) {
    super(message);
  }

  /** An error caused by another, usually an I/O failure on the node's files. */
  public LocalCassandraException(String message, Throwable cause) {
    super(message, cause);
  }
}
