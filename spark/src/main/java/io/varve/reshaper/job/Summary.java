package io.varve.reshaper.job;

import io.varve.reshaper.config.JobConfig;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.Locale;

/** The lines that end a run on standard output: the summary, or why it stopped. */
final class Summary {
  private final JobConfig config;
  private final String verb;
  private final PrintStream out;

  Summary(JobConfig config, String verb, PrintStream out) {
    this.config = config;
    this.verb = verb;
    this.out = out;
  }

  /**
   * Prints the end of a run that got as far as Spark.
   *
   * @param ranges the job's token ranges
   * @param already the ranges done by earlier runs
   */
  void print(
      ReshapeJob.Kind kind,
      boolean copyMissing,
      Outcome status,
      RangeRun.Result run,
      int ranges,
      int already) {
    Path badRows = config.badRowsPath();
    Totals t = run.totals();
    long maxBadRows = config.failures().maxBadRows();
    if (status == Outcome.RESHAPE_CONFLICT) {
      out.println(verb + ": aborted: " + t.conflict().lines().findFirst().orElse(""));
      return;
    }
    if (run.ending() == JobOutcome.Ending.BROKE) {
      if (status == Outcome.TOO_MANY_BAD_ROWS) {
        out.printf(
            Locale.ROOT,
            "%s: aborted: %,d bad rows, more than failures.maxBadRows=%d;" + " see %s%n",
            verb,
            t.badRows(),
            maxBadRows,
            badRows);
      } else {
        out.println(verb + ": failed: " + run.failure());
        out.println(verb + ": finished ranges are recorded; rerun the same command to resume");
      }
      return;
    }
    double seconds = run.seconds();
    if (kind == ReshapeJob.Kind.COPY) {
      out.printf(
          Locale.ROOT,
          "migrate: done: ranges %d/%d (%d done by earlier runs), rows read"
              + " %,d, rows written %,d, bad rows %,d, %.1f s, %,.0f rows/s%n",
          ranges,
          ranges,
          already,
          t.rowsRead(),
          t.rowsWritten(),
          t.badRows(),
          seconds,
          t.rowsRead() / Math.max(seconds, 0.001));
    } else {
      out.printf(
          Locale.ROOT,
          "validate: done: rows checked %,d, missing %,d, mismatched %,d%s%s," + " %.1f s%n",
          t.rowsRead(),
          t.missing(),
          t.mismatched(),
          copyMissing ? ", missing rows copied " + t.rowsWritten() : "",
          t.targetOnly() < 0
              ? ""
              : String.format(Locale.ROOT, ", only in target %,d", t.targetOnly()),
          seconds);
      t.samples().forEach(s -> out.println("validate:   " + s));
    }
    if (run.throttled() > 0) {
      out.printf(
          Locale.ROOT,
          "%s: DynamoDB throttled %,d requests; each was sent again after a backoff%n",
          verb,
          run.throttled());
    }
    if (t.badRows() > 0) {
      out.println(verb + ": bad rows are in " + badRows);
    }
    if (status == Outcome.TOO_MANY_BAD_ROWS) {
      out.printf(
          Locale.ROOT,
          "%s: %,d bad rows, more than failures.maxBadRows=%d%n",
          verb,
          t.badRows(),
          maxBadRows);
    }
  }
}
