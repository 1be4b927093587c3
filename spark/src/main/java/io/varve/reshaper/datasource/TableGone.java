package io.varve.reshaper.datasource;

import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import java.util.Locale;

/**
 * A table of a namespace that is gone while a job reads or writes it: the namespace deleted
 * (DeleteNamespace drops its tables), or a slice dropped by retention. The driver says only
 * "unconfigured table"; the task fails with what happened instead, and Spark's retries of it fail
 * the same way at once.
 */
public final class TableGone {

  private TableGone() {}

  /**
   * {@code error} as the failure of a job on {@code namespace} whose table is gone, when that is
   * what it is; else {@code error} itself.
   */
  public static RuntimeException translate(RuntimeException error, String namespace) {
    for (Throwable t = error; t != null; t = t.getCause()) {
      if (t instanceof InvalidQueryException q && gone(q.getMessage())) {
        return new IllegalStateException(
            "namespace "
                + namespace
                + ": a table of it is gone ("
                + q.getMessage()
                + "): the namespace was deleted, or the slice dropped by retention, while the job"
                + " ran; nothing more of it can be read or written",
            error);
      }
    }
    return error;
  }

  private static boolean gone(String message) {
    String m = String.valueOf(message).toLowerCase(Locale.ROOT);
    return m.contains("unconfigured table")
        || (m.contains("table") && m.contains("does not exist"))
        || (m.contains("keyspace") && m.contains("does not exist"));
  }
}
