package io.varve.local;

import java.util.Objects;

/**
 * A local server could not be started, reached or stopped. The message says why and what to do: run
 * the build, free a port, install a JDK 21+ (OpenSearch), or read the log it quotes.
 */
public final class LocalServerException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  private final Product product;

  /** An error with a message meant for the person running the server. */
  public LocalServerException(Product product, String message) {
    this(product, message, null);
  }

  /** An error caused by another, usually an I/O failure on the server's files. */
  public LocalServerException(Product product, String message, Throwable cause) {
    super(message, cause);
    this.product = Objects.requireNonNull(product, "product");
  }

  /** The server that failed. */
  public Product product() {
    return product;
  }
}
