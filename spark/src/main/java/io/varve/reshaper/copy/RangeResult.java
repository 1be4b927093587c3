package io.varve.reshaper.copy;

import io.varve.reshaper.badrows.BadRow;
import java.io.Serializable;
import java.util.List;

/**
 * What one Spark task did, returned to the driver as the task's result. The driver counts it once,
 * when its task commits, so a task tried again is never counted twice (Spark applies updates of
 * accumulators in transformations once per attempt that succeeds, not once per range).
 *
 * @param rangeIndex the token range, or -1 for a task after a shuffle
 * @param complete false when the task stopped early: at a conflict, or past {@code
 *     failures.maxBadRows} bad rows
 * @param rowsRead source rows read
 * @param rowsWritten target rows handed to the writer (after conflicts were resolved)
 * @param badRows every row that could not be written
 * @param conflict the first two rows with one target key under {@code onConflict: fail}, or null
 * @param differences validation: what differs in the target
 */
public record RangeResult(
    int rangeIndex,
    boolean complete,
    long rowsRead,
    long rowsWritten,
    List<BadRow> badRows,
    String conflict,
    Differences differences)
    implements Serializable {

  /** What validation found missing or different in the target. */
  public record Differences(long missing, long mismatched, List<String> samples)
      implements Serializable {
    /** Nothing compared, or nothing found. */
    public static final Differences NONE = new Differences(0, 0, List.of());
  }
}
