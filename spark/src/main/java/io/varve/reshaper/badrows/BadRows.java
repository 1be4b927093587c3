package io.varve.reshaper.badrows;

import java.util.ArrayList;
import java.util.List;

/**
 * The bad rows of one Spark task, every one of them: they go back to the driver in the task's
 * result, which writes them to the bad-rows file once the range is committed. A task stops reading
 * once it holds more than {@code failures.maxBadRows}, which bounds the list. Rows are added from
 * the driver's completion threads; thread-safe.
 */
public final class BadRows {
  private final List<BadRow> rows = new ArrayList<>();

  /** Adds a row that could not be written. */
  public synchronized void add(BadRow row) {
    rows.add(row);
  }

  /** How many rows were added. */
  public synchronized long count() {
    return rows.size();
  }

  /** Every row added, in the order they failed. */
  public synchronized List<BadRow> all() {
    return List.copyOf(rows);
  }
}
