package io.varve.reshaper.plan;

import java.io.Serializable;

/**
 * One unit of a job's work, progress and resume: a token range of a table, or a file of a Parquet
 * source. A unit is read by one Spark task and recorded as done in the savepoint by its index.
 */
public interface WorkUnit extends Serializable {
  /** Its position among the job's units, 0-based. */
  int index();
}
