package io.varve.local;

/**
 * The local OpenSearch could not be started, reached or stopped. The message says why and what
 * to do: install a JDK 21+, run the build, free a port, or read the log it quotes.
 */
public final class LocalOpenSearchException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** An error with a message meant for the person running the node. */
  public LocalOpenSearchException(String message) {
    super(message);
  }

  /** An error caused by another, usually an I/O failure on the node's files. */
  public LocalOpenSearchException(String message, Throwable cause) {
    super(message, cause);
  }
}
