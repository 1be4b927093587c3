package io.varve.reshaper.datasource;

/**
 * A write to a namespace stopped because the namespace refused more rows than {@code maxBadRows}
 * allows; the message says how many and names the first ones with their reasons.
 */
public final class BadRowsException extends IllegalStateException {
  private static final long serialVersionUID = 1L;

  public BadRowsException(String message) {
    super(message);
  }

  /** Whether {@code error} or one of its causes is one, as Spark wraps a task's failure. */
  public static boolean in(Throwable error) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof BadRowsException
          || String.valueOf(t.getMessage()).contains(BadRowsException.class.getName())) {
        return true;
      }
    }
    return false;
  }
}
