package io.varve.reshaper.job;

import static io.varve.reshaper.job.JobOutcome.Ending.BROKE;
import static io.varve.reshaper.job.JobOutcome.Ending.NOTHING_TO_DO;
import static io.varve.reshaper.job.JobOutcome.Ending.RAN;
import static io.varve.reshaper.job.JobOutcome.Ending.REFUSED;
import static io.varve.reshaper.job.ReshapeJob.Kind.COPY;
import static io.varve.reshaper.job.ReshapeJob.Kind.VALIDATE;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The exit status of every way a run can end, from the one function that chooses it. */
class JobOutcomeTest {
  private static final long MAX_BAD_ROWS = 10;

  private record Row(
      ReshapeJob.Kind kind,
      boolean copyMissing,
      JobOutcome.Ending ending,
      long badRows,
      String conflict,
      long missing,
      long mismatched,
      Outcome expected) {}

  @Test
  void chooses_the_status_of_each_way_a_run_ends() {
    List<Row> table =
        List.of(
            new Row(COPY, false, REFUSED, 0, null, 0, 0, Outcome.INVALID_INPUT),
            new Row(VALIDATE, false, REFUSED, 0, null, 0, 0, Outcome.INVALID_INPUT),
            new Row(COPY, false, NOTHING_TO_DO, 0, null, 0, 0, Outcome.OK),
            new Row(COPY, false, RAN, 0, null, 0, 0, Outcome.OK),
            new Row(COPY, false, RAN, 10, null, 0, 0, Outcome.COMPLETED_WITH_BAD_ROWS),
            new Row(COPY, false, RAN, 11, null, 0, 0, Outcome.TOO_MANY_BAD_ROWS),
            // cancelled for its bad rows: the cancellation is not a failure
            new Row(COPY, false, BROKE, 11, null, 0, 0, Outcome.TOO_MANY_BAD_ROWS),
            // cancelled at a conflict, which wins over bad rows met on the way
            new Row(
                COPY, false, BROKE, 11, "reshape conflict: ...", 0, 0, Outcome.RESHAPE_CONFLICT),
            new Row(COPY, false, RAN, 0, "reshape conflict: ...", 0, 0, Outcome.RESHAPE_CONFLICT),
            new Row(COPY, false, BROKE, 3, null, 0, 0, Outcome.FATAL),
            new Row(VALIDATE, false, RAN, 0, null, 0, 0, Outcome.OK),
            new Row(VALIDATE, false, RAN, 0, null, 1, 0, Outcome.DIFFERENCES_FOUND),
            new Row(VALIDATE, true, RAN, 0, null, 1, 0, Outcome.OK),
            new Row(VALIDATE, true, RAN, 0, null, 1, 1, Outcome.DIFFERENCES_FOUND),
            new Row(VALIDATE, true, RAN, 1, null, 1, 0, Outcome.DIFFERENCES_FOUND),
            new Row(VALIDATE, true, RAN, 11, null, 1, 0, Outcome.TOO_MANY_BAD_ROWS),
            new Row(VALIDATE, false, BROKE, 0, null, 0, 0, Outcome.FATAL));
    for (Row r : table) {
      Totals totals =
          new Totals(
              0, 100, 100, r.badRows(), r.conflict(), r.missing(), r.mismatched(), List.of(), -1);
      assertThat(JobOutcome.status(r.kind(), r.copyMissing(), MAX_BAD_ROWS, r.ending(), totals))
          .as(r.toString())
          .isEqualTo(r.expected());
    }
    Totals onlyInTarget = new Totals(0, 100, 100, 0, null, 0, 0, List.of(), 2);
    assertThat(JobOutcome.status(VALIDATE, true, MAX_BAD_ROWS, RAN, onlyInTarget))
        .as("rows only in the target are differences, which copying missing rows does not mend")
        .isEqualTo(Outcome.DIFFERENCES_FOUND);
  }
}
