package io.varve.reshaper.job;

/**
 * Chooses a job's {@link Outcome}: the one place that turns how a run ended and what it counted
 * into a status.
 */
final class JobOutcome {

  /** How a run ended, before its counts are looked at. */
  enum Ending {
    /** The job file, the schemas or the command line refused the job; nothing was written. */
    REFUSED,
    /** Every range was done by earlier runs. */
    NOTHING_TO_DO,
    /** Every task of the Spark job returned. */
    RAN,
    /** The Spark job failed or was cancelled, or another error stopped the run. */
    BROKE
  }

  private JobOutcome() {}

  /**
   * The status of a run: a refusal, then a conflict, then more than {@code maxBadRows} bad rows
   * (whether the run was stopped for them or finished), then a failure; a finished copy is OK
   * unless it met bad rows, a finished validation unless it found differences (missing rows do not
   * count when they were copied) or bad rows.
   */
  static Outcome status(
      ReshapeJob.Kind kind, boolean copyMissing, long maxBadRows, Ending ending, Totals totals) {
    if (ending == Ending.REFUSED) {
      return Outcome.INVALID_INPUT;
    }
    if (ending == Ending.NOTHING_TO_DO) {
      return Outcome.OK;
    }
    if (totals.conflict() != null) {
      return Outcome.RESHAPE_CONFLICT;
    }
    if (totals.badRows() > maxBadRows) {
      return Outcome.TOO_MANY_BAD_ROWS;
    }
    if (ending == Ending.BROKE) {
      return Outcome.FATAL;
    }
    if (kind == ReshapeJob.Kind.VALIDATE) {
      boolean differs =
          totals.mismatched() > 0
              || (totals.missing() > 0 && !copyMissing)
              || totals.targetOnly() > 0
              || totals.badRows() > 0;
      return differs ? Outcome.DIFFERENCES_FOUND : Outcome.OK;
    }
    return totals.badRows() > 0 ? Outcome.COMPLETED_WITH_BAD_ROWS : Outcome.OK;
  }
}
