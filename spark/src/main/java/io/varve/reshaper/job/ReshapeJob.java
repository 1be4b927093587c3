package io.varve.reshaper.job;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.reshaper.cluster.Cluster;
import io.varve.reshaper.cluster.UnreachableClusterException;
import io.varve.reshaper.compaction.TargetCompaction;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import java.io.PrintStream;
import java.util.Locale;
import java.util.Map;

/**
 * Runs one job in named steps: connect and plan ({@link PreparedJob}, before anything is written),
 * turn the target's compaction off if asked, run the ranges not yet done on Spark ({@link
 * RangeRun}), choose the exit status ({@link JobOutcome}), print the summary and run the major
 * compaction if asked. Progress goes to {@code err}, the summary to {@code out}.
 */
public final class ReshapeJob {

  /** What the job does with the rows it reads. */
  public enum Kind {
    /** Write them to the target. */
    COPY("migrate"),
    /** Compare them with the target. */
    VALIDATE("validate");

    private final String verb;

    Kind(String verb) {
      this.verb = verb;
    }

    /** The word that starts the job's lines. */
    public String verb() {
      return verb;
    }
  }

  private final JobConfig config;
  private final PrintStream out;
  private final PrintStream err;

  public ReshapeJob(JobConfig config, PrintStream out, PrintStream err) {
    this.config = config;
    this.out = out;
    this.err = err;
  }

  /** Runs the job; {@code copyMissing} applies to validation. Never throws for bad input. */
  public Outcome run(Kind kind, boolean copyMissingAsked) {
    boolean copyMissing = copyMissingAsked || config.validation().copyMissingRows();
    String verb = kind.verb();
    err.println(verb + ": " + config.source().redacted());
    err.println(verb + ": " + config.target().redacted());
    config.warnings().forEach(w -> err.println(verb + ": warning: " + w));
    Map<String, String> common = Cluster.commonOptions(config.spark());
    Cluster source = config.source().isCql() ? new Cluster(config.source(), common) : null;
    Cluster target = config.target().isCql() ? new Cluster(config.target(), common) : null;
    try (CqlSession in = source == null ? null : source.open();
        CqlSession outSession = target == null ? null : target.open()) {
      // Spark starts only when a plan needs its task slots, so that a refused job says so at once
      java.util.function.IntSupplier parallelism =
          () ->
              Math.max(1, SparkSupport.session(config.spark()).sparkContext().defaultParallelism());
      PreparedJob job =
          PreparedJob.prepare(config, kind, source, target, in, outSession, parallelism);
      printPlan(verb, job);
      if (job.splitNote() != null) {
        err.println(verb + ": " + job.splitNote());
      }
      if (job.todo().isEmpty()) {
        out.println(
            verb
                + ": nothing to do: all "
                + job.ranges().size()
                + " "
                + job.units()
                + " are"
                + " recorded as done in "
                + job.savepoint().file()
                + "; delete it to copy again");
        return status(kind, copyMissing, JobOutcome.Ending.NOTHING_TO_DO, Totals.NONE);
      }
      RangeRun.Result run;
      try (TargetCompaction compaction =
          TargetCompaction.disableIfAsked(
              config, kind == Kind.COPY && target != null, outSession, job.targetTable(), err)) {
        run = new RangeRun(config, kind, copyMissing, job, err).run(source, target);
      }
      Outcome status = status(kind, copyMissing, run.ending(), run.totals());
      new Summary(config, verb, out)
          .print(kind, copyMissing, status, run, job.ranges().size(), job.alreadyDone());
      if (kind == Kind.COPY
          && status.copiedEveryRange()
          && target != null
          && config.compaction().majorCompactionAfter()) {
        TargetCompaction.major(config, outSession, err);
      }
      return status;
    } catch (ConfigException e) {
      err.println(verb + ": error: " + e.getMessage());
      err.println(verb + ": nothing was written");
      return status(kind, copyMissing, JobOutcome.Ending.REFUSED, Totals.NONE);
    } catch (UnreachableClusterException e) {
      err.println(verb + ": error: " + e.getMessage());
      err.println(verb + ": nothing was written; run it again once the cluster can be reached");
      return status(kind, copyMissing, JobOutcome.Ending.BROKE, Totals.NONE);
    } catch (RuntimeException e) {
      out.println(verb + ": failed: " + e);
      out.println(verb + ": finished ranges are recorded; rerun the same command to resume");
      return status(kind, copyMissing, JobOutcome.Ending.BROKE, Totals.NONE);
    }
  }

  private Outcome status(Kind kind, boolean copyMissing, JobOutcome.Ending ending, Totals totals) {
    return JobOutcome.status(kind, copyMissing, config.failures().maxBadRows(), ending, totals);
  }

  private void printPlan(String verb, PreparedJob job) {
    var plan = job.plan();
    err.printf(
        Locale.ROOT,
        "%s: plan: mode %s, %d %s, %d already done (%s)%s%s%n",
        verb,
        plan.mode(),
        job.ranges().size(),
        job.units(),
        job.alreadyDone(),
        job.savepoint() == null ? "no savepoint" : job.savepoint().file(),
        plan.resolution().onConflict() == null
            ? ""
            : ", onConflict " + plan.resolution().onConflict(),
        plan.sliceKeys() == null ? "" : ", " + plan.sliceKeys().describe());
  }
}
