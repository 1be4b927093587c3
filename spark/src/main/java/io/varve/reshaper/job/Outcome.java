package io.varve.reshaper.job;

/**
 * The outcome of a job. {@code varve migrate} turns it into the process's exit status in one place,
 * {@code cli.MigrateCommand.exitStatus} (docs/exit-status.md).
 */
public enum ExitStatus {
  /** Every range done; validation found no difference. */
  OK(0),
  /** Done, but some rows could not be written (fewer than {@code failures.maxBadRows}). */
  COMPLETED_WITH_BAD_ROWS(1),
  /** Bad configuration, schema or command line; nothing was written. */
  INVALID_INPUT(2),
  /** Stopped: more than {@code failures.maxBadRows} bad rows. */
  TOO_MANY_BAD_ROWS(3),
  /** Stopped: two rows landed on one target key under {@code reshape.onConflict: fail}. */
  RESHAPE_CONFLICT(4),
  /** Validation found missing or mismatched rows. */
  DIFFERENCES_FOUND(5),
  /** Stopped by an unexpected error (lost connection, failed task); rerun to resume. */
  FATAL(6);

  private final int code;

  ExitStatus(int code) {
    this.code = code;
  }

  /** The outcome's number: 0 and 1 finished every range. Not the process's exit status. */
  public int code() {
    return code;
  }
}
