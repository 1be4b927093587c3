package io.varve.bench.engine;

/** A benchmark that cannot start or finish, with a message meant for the user. */
public class BenchException extends RuntimeException {
  public BenchException(String message) {
    super(message);
  }

  public BenchException(String message, Throwable cause) {
    super(message, cause);
  }
}
