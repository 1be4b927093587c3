package io.varve.reshaper.copy;

/** Consumes target rows of one token range; {@link #finish} waits until all are handled. */
interface RowSink {
  void accept(TargetRow row);

  void finish();
}
