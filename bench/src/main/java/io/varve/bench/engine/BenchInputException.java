package io.varve.bench.engine;

/**
 * A benchmark refused before any operation because of its input: a property value, the workload, or
 * the binding's name. The message names the property, the value and what was expected; the command
 * exits with invalid input.
 */
public class BenchInputException extends BenchException {
  public BenchInputException(String message) {
    super(message);
  }

  public BenchInputException(String message, Throwable cause) {
    super(message, cause);
  }
}
