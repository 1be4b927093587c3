package io.varve.reshaper.copy;

/** Consumes target rows of one token range; {@link #finish} waits until all are handled. */
public interface RowSink {
  /** Takes one row. */
  void accept(TargetRow row);

  /** Waits until every row taken is handled. */
  void finish();
}
