package io.varve.reshaper.job;

import io.varve.reshaper.badrows.BadRowsFile;
import io.varve.reshaper.copy.RangeResult;
import io.varve.reshaper.savepoint.Savepoint;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Takes the results of a run's tasks on the driver, once per task: a result delivered again for the
 * same partition (by a task tried again or run twice) is ignored. Each result's bad rows are
 * appended to the bad-rows file before its range is recorded in the savepoint, so the file holds
 * every bad row of every recorded range. Thread-safe.
 */
final class ResultCollector {
  private final BadRowsFile badRowsFile;
  private final Savepoint savepoint;
  private final int sampleLimit;
  private final Set<Integer> seen = new HashSet<>();
  private final List<String> samples = new ArrayList<>();
  private long rangesCompleted;
  private long rowsRead;
  private long rowsWritten;
  private long badRows;
  private String conflict;
  private long missing;
  private long mismatched;

  /**
   * @param savepoint where completed ranges are recorded, or null
   * @param sampleLimit validation differences kept for the summary
   */
  ResultCollector(BadRowsFile badRowsFile, Savepoint savepoint, int sampleLimit) {
    this.badRowsFile = badRowsFile;
    this.savepoint = savepoint;
    this.sampleLimit = sampleLimit;
  }

  /** Counts the results of partition {@code partition}; false if they were counted already. */
  synchronized boolean add(int partition, List<RangeResult> results) {
    if (!seen.add(partition)) {
      return false;
    }
    results.forEach(this::count);
    return true;
  }

  private void count(RangeResult r) {
    badRowsFile.append(r.badRows());
    if (r.complete()) {
      rangesCompleted++;
      if (savepoint != null && r.rangeIndex() >= 0) {
        savepoint.markDone(r.rangeIndex());
      }
    }
    rowsRead += r.rowsRead();
    rowsWritten += r.rowsWritten();
    badRows += r.badRows().size();
    if (conflict == null) {
      conflict = r.conflict();
    }
    missing += r.differences().missing();
    mismatched += r.differences().mismatched();
    for (String s : r.differences().samples()) {
      if (samples.size() < sampleLimit) {
        samples.add(s);
      }
    }
  }

  /** The sums of the results counted so far. */
  synchronized Totals totals() {
    return new Totals(
        rangesCompleted,
        rowsRead,
        rowsWritten,
        badRows,
        conflict,
        missing,
        mismatched,
        List.copyOf(samples),
        -1);
  }
}
