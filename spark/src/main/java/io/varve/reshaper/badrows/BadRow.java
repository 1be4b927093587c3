package io.varve.reshaper.badrows;

import java.io.Serializable;

/**
 * A target row that could not be written, as data: the CQL statement that writes it (an {@code
 * INSERT}, or an unlogged batch of them when its cells have different writetimes) and the error of
 * its last attempt. Travels from a Spark task to the driver in the range result.
 *
 * @param statement the CQL statement, without its final {@code ;}
 * @param error the error, on one line, e.g. {@code InvalidQueryException: Key length ...}
 */
public record BadRow(String statement, String error) implements Serializable {

  /**
   * A bad row that no CQL statement writes (a record of a file, an item of another database): kept
   * as a comment saying where it is, which replay skips.
   */
  public static BadRow described(String where, String error) {
    return new BadRow(
        "-- " + where.replaceAll("[\\r\\n]+", " "), error.replaceAll("\\s*[\\r\\n]+\\s*", " "));
  }

  /** A bad row whose last attempt failed with {@code error}. */
  public static BadRow of(String statement, Throwable error) {
    String message = error.getClass().getSimpleName() + ": " + error.getMessage();
    return new BadRow(statement, message.replaceAll("\\s*[\\r\\n]+\\s*", " "));
  }
}
