package io.varve.reshaper.config;

/**
 * A job configuration or a schema does not allow the job to run. Thrown before anything is written;
 * the message names the full key, the value and what was expected, in the form {@code
 * renames[0].from: dat (expected: a column of ks.t: partnerid, id, date)}.
 */
public final class ConfigException extends RuntimeException {
  private static final long serialVersionUID = 1L;

  /** An error about one key: {@code key: value (expected: expected)}. */
  public ConfigException(String key, Object value, String expected) {
    super(key + ": " + value + " (expected: " + expected + ")");
  }

  /** An error with a message of its own. */
  public ConfigException(String message) {
    super(message);
  }

  /** An error with a message of its own and its cause. */
  public ConfigException(String message, Throwable cause) {
    super(message, cause);
  }
}
