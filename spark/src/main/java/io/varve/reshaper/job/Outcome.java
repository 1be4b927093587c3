package io.varve.reshaper.job;

import io.varve.command.ExitStatus;

/**
 * How a job ended, and the exit status of the shared table ({@link ExitStatus},
 * docs/exit-status.md) that {@code varve migrate} exits with for it: this is the one place where
 * the two meet.
 */
public enum Outcome {
  /** Every range done; validation found no difference. */
  OK(ExitStatus.OK),
  /** Done, but some rows could not be written (at most {@code failures.maxBadRows}). */
  COMPLETED_WITH_BAD_ROWS(ExitStatus.COMPLETED_WITH_ERRORS),
  /** Validation found missing or mismatched rows. */
  DIFFERENCES_FOUND(ExitStatus.COMPLETED_WITH_ERRORS),
  /** Bad configuration, schema or command line; nothing was written. */
  INVALID_INPUT(ExitStatus.INVALID_INPUT),
  /** Stopped: more than {@code failures.maxBadRows} bad rows. */
  TOO_MANY_BAD_ROWS(ExitStatus.ABORTED_TOO_MANY_ERRORS),
  /** Stopped: two rows landed on one target key under {@code reshape.onConflict: fail}. */
  RESHAPE_CONFLICT(ExitStatus.ABORTED_TOO_MANY_ERRORS),
  /**
   * Stopped by the environment: a cluster that cannot be reached (nothing was written), a lost
   * connection, a failed task; rerun to resume.
   */
  FATAL(ExitStatus.ABORTED_FATAL_ERROR);

  private final ExitStatus exitStatus;

  Outcome(ExitStatus exitStatus) {
    this.exitStatus = exitStatus;
  }

  /** The process's exit status for this outcome. */
  public ExitStatus exitStatus() {
    return exitStatus;
  }

  /** Whether every range was copied: the run finished, with or without bad rows. */
  public boolean copiedEveryRange() {
    return this == OK || this == COMPLETED_WITH_BAD_ROWS;
  }
}
