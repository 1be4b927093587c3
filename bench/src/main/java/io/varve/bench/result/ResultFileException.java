package io.varve.bench.result;

/** A result file that cannot be read, with the file and field named in the message. */
public class ResultFileException extends RuntimeException {
  public ResultFileException(String message) {
    super(message);
  }

  public ResultFileException(String message, Throwable cause) {
    super(message, cause);
  }
}
