package io.varve.bench.engine;

/**
 * A benchmark that cannot start or finish, with a message meant for the user: a binding that cannot
 * start, results that cannot be written. Refusals of the input are the subclass {@link
 * BenchInputException}.
 */
public class BenchException extends RuntimeException {
  public BenchException(String message) {
    super(message);
  }

  public BenchException(String message, Throwable cause) {
    super(message, cause);
  }
}
