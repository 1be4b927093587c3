package io.varve.reshaper.copy;

/** Two source rows landed on one target key under {@code reshape.onConflict: fail}. */
public final class ReshapeConflictException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  ReshapeConflictException(String message) {
    super(message);
  }
}
