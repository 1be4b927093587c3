package io.varve.reshaper.copy;

import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.plan.WorkUnit;
import java.io.Serializable;

/**
 * Opens the writer of one unit of work on the job's target: the target type's side of a task.
 * Serializable: it travels to Spark executors.
 */
public interface TargetSide extends Serializable {

  /**
   * A writer for the rows of {@code unit} (null for the rows a shuffle resolved), counting rows it
   * cannot write in {@code bad}, at most {@code rowsPerSecond} rows and {@code bytesPerSecond}
   * value bytes per second (0 = no limit).
   */
  RowWriter open(WorkUnit unit, BadRows bad, double rowsPerSecond, double bytesPerSecond);
}
