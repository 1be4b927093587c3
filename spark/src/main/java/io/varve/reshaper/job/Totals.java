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
 * @param targetOnly validation: target rows that no source row makes, or -1 when not looked for
 */
record Totals(
    long rangesCompleted,
    long rowsRead,
    long rowsWritten,
    long badRows,
    String conflict,
    long missing,
    long mismatched,
    List<String> samples,
    long targetOnly) {

  /** Nothing yet. */
  static final Totals NONE = new Totals(0, 0, 0, 0, null, 0, 0, List.of(), -1);

  /** These totals with the rows found only in the target, and their samples added. */
  Totals withTargetOnly(long count, List<String> more) {
    List<String> all = new java.util.ArrayList<>(samples);
    all.addAll(more);
    return new Totals(
        rangesCompleted,
        rowsRead,
        rowsWritten,
        badRows,
        conflict,
        missing,
        mismatched,
        List.copyOf(all),
        count);
  }
}
