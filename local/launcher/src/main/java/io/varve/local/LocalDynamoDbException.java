package io.varve.local;

/**
 * The local DynamoDB Local could not be started, reached or stopped. The message says why and
 * what to do: run the build, free the port, or read the log it quotes.
 */
public final class LocalDynamoDbException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  /** An error with a message meant for the person running the server. */
  public LocalDynamoDbException(String message) {
    super(message);
  }

  /** An error caused by another, usually an I/O failure on the server's files. */
  public LocalDynamoDbException(String message, Throwable cause) {
    super(message, cause);
  }
}
