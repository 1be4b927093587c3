package io.varve.reshaper.job;

import java.util.List;

/**
 * What the committed ranges of a run add up to, each range counted once.
 *
 * @param rangesCompleted ranges whose task finished (not stopped early)
 * @param rowsRead source rows read
 * @param rowsWritten target rows handed to the writer
 * @param badRows rows that could not be written
 * @param conflict the first conflict under {@code onConflict: fail}, or null
 * @param missing validation: target rows absent
 * @param mismatched validation: target rows that differ
 * @param samples validation: differences, described, at most {@code validation.failuresToFetch}
 */
record Totals(
    long rangesCompleted,
    long rowsRead,
    long rowsWritten,
    long badRows,
    String conflict,
    long missing,
    long mismatched,
    List<String> samples) {

  /** Nothing yet. */
  static final Totals NONE = new Totals(0, 0, 0, 0, null, 0, 0, List.of());
}
