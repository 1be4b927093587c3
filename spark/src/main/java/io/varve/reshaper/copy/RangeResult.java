package io.varve.reshaper.copy;

import java.io.Serializable;
import java.util.List;

/**
 * What one Spark task did, sent back to the driver.
 *
 * @param rangeIndex the token range, or -1 for a task after a shuffle
 * @param rowsRead source rows read
 * @param rowsWritten target rows written (after conflicts were resolved)
 * @param badRows rows that could not be written
 * @param badRowLines the first bad rows, described
 * @param missing validation: expected target rows that are absent
 * @param mismatched validation: target rows whose values differ
 * @param samples validation: the first differences, described
 */
public record RangeResult(int rangeIndex, long rowsRead, long rowsWritten, long badRows,
    List<String> badRowLines, long missing, long mismatched, List<String> samples)
    implements Serializable {}
