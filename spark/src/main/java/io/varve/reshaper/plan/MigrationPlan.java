package io.varve.reshaper.plan;

import java.io.Serializable;

/**
 * What a job reads, how each target column is filled and how collisions are resolved, checked
 * against both schemas by {@link Planner}. Serializable: it travels to Spark executors.
 *
 * @param source how the source is read
 * @param target how target rows are filled and written
 * @param sliceKeys the target's time_bucket and event_bucket computed per row ({@code timeSlice}),
 *     or null
 * @param resolution how rows travel and which of colliding rows wins
 * @param fingerprint identifies the job's data movement in savepoints
 */
public record MigrationPlan(
    SourceScan source,
    TargetLayout target,
    SliceKeys sliceKeys,
    Resolution resolution,
    String fingerprint)
    implements Serializable {

  /** The mode, see {@link CopyMode}. */
  public CopyMode mode() {
    return resolution.mode();
  }
}
