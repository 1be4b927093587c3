package io.varve.reshaper.copy;

/**
 * Consumes the target rows of one unit of work: the writer of a job's target type. {@link #finish}
 * waits until every row is handled; {@link #commit} then makes the unit's rows visible where they
 * are not already (a Parquet file renamed into place) and is called only for a unit read to its
 * end; {@link #close} releases everything, and discards what was not committed where it can.
 */
public interface RowWriter extends RowSink, AutoCloseable {

  /** Rows handed to the target so far. */
  long written();

  /**
   * True when rows handed over are still being written after {@link #accept} returns (requests in
   * flight): a task then finishes this writer only after the next unit's rows are handed over, so
   * the target stays busy. False (the default) for a writer whose {@link #finish} does the
   * remaining work itself, such as closing a file whose data it holds in memory until then.
   */
  default boolean writesInFlight() {
    return false;
  }

  /** After {@link #finish}, for a unit that was read whole. */
  default void commit() {}

  @Override
  void close();
}
