package io.varve.reshaper.copy;

import io.varve.reshaper.plan.WorkUnit;
import java.io.Serializable;
import java.util.Iterator;

/**
 * Reads the rows of one unit of work, in the plan's select order: the reader of a job's source
 * type. Serializable: it travels to Spark executors, where each task opens its unit.
 */
public interface SourceReader extends Serializable {

  /** The rows of one unit; closing releases what reading them holds. */
  interface UnitRows extends Iterator<SourceRow>, AutoCloseable {
    @Override
    void close();
  }

  /** Opens {@code unit}; the first read happens now, so a failure to start shows here. */
  UnitRows open(WorkUnit unit);
}
