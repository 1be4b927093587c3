package io.varve.reshaper.job;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRowsFile;
import io.varve.reshaper.cluster.Cluster;
import io.varve.reshaper.cluster.UnreachableClusterException;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.Retries;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Semaphore;

/**
 * {@code migrate replay}: writes the rows of a bad-rows file to the target again, once their cause
 * is fixed. Runs on the driver, without Spark: each statement at the target's consistency level,
 * {@code writer.maxInFlight} at once, with {@code failures.retries} retries. The file is then
 * replaced by the rows that still fail, with their new errors, or removed when every row was
 * written; so replaying again retries exactly those. Every statement is an upsert, so a row
 * replayed twice is written once.
 */
public final class ReplayJob {
  private static final String VERB = "replay";
  private final JobConfig config;
  private final PrintStream out;
  private final PrintStream err;

  public ReplayJob(JobConfig config, PrintStream out, PrintStream err) {
    this.config = config;
    this.out = out;
    this.err = err;
  }

  /** Replays {@code file}, or the job's bad-rows file when null. Never throws for bad input. */
  public Outcome run(Path file) {
    Path path = file != null ? file : config.badRowsPath();
    err.println(VERB + ": " + config.target().redacted());
    try {
      if (!Files.exists(path)) {
        if (file != null) {
          throw new ConfigException("--bad-rows", file, "an existing bad-rows file");
        }
        out.println(VERB + ": nothing to do: there is no bad-rows file " + path);
        return status(JobOutcome.Ending.NOTHING_TO_DO, Totals.NONE);
      }
      List<BadRow> rows = read(path);
      long start = System.nanoTime();
      List<BadRow> failed = write(rows);
      new BadRowsFile(
              path,
              "varve migrate replay "
                  + config.jobName()
                  + " at "
                  + Instant.now()
                  + ": rows that still fail, each a CQL statement after its error")
          .replaceWith(failed);
      Totals totals =
          new Totals(
              0,
              rows.size(),
              rows.size() - failed.size(),
              failed.size(),
              null,
              0,
              0,
              List.of(),
              -1);
      out.printf(
          Locale.ROOT,
          "%s: done: rows %,d, written %,d, bad rows %,d, %.1f s%n",
          VERB,
          rows.size(),
          totals.rowsWritten(),
          failed.size(),
          (System.nanoTime() - start) / 1e9);
      out.println(
          failed.isEmpty()
              ? VERB + ": every row was written; " + path + " is removed"
              : VERB + ": the rows that still fail are in " + path);
      return status(JobOutcome.Ending.RAN, totals);
    } catch (ConfigException e) {
      err.println(VERB + ": error: " + e.getMessage());
      err.println(VERB + ": nothing was written");
      return status(JobOutcome.Ending.REFUSED, Totals.NONE);
    } catch (UnreachableClusterException e) {
      err.println(VERB + ": error: " + e.getMessage());
      err.println(
          VERB + ": " + path + " is unchanged; run it again once the cluster can be reached");
      return status(JobOutcome.Ending.BROKE, Totals.NONE);
    } catch (RuntimeException e) {
      out.println(VERB + ": failed: " + e);
      out.println(VERB + ": " + path + " is unchanged; replaying it again is safe");
      return status(JobOutcome.Ending.BROKE, Totals.NONE);
    }
  }

  private static List<BadRow> read(Path path) {
    try {
      return BadRowsFile.read(path);
    } catch (IllegalArgumentException e) {
      throw new ConfigException("--bad-rows", path, "a bad-rows file: " + e.getMessage());
    }
  }

  /** Writes every row; returns those that still fail. */
  private List<BadRow> write(List<BadRow> rows) {
    Cluster target = new Cluster(config.target(), Cluster.commonOptions(config.spark()));
    var consistency = DefaultConsistencyLevel.valueOf(config.target().consistencyLevel());
    int maxInFlight = config.writer().maxInFlight();
    Semaphore inFlight = new Semaphore(maxInFlight);
    List<BadRow> failed = Collections.synchronizedList(new ArrayList<>());
    try (CqlSession session = target.open()) {
      for (BadRow row : rows) {
        inFlight.acquireUninterruptibly();
        Retries.execute(
                session,
                SimpleStatement.newInstance(row.statement()).setConsistencyLevel(consistency),
                config.failures().retries())
            .thenAccept(
                error -> {
                  if (error != null) {
                    failed.add(BadRow.of(row.statement(), error));
                  }
                  inFlight.release();
                });
      }
      inFlight.acquireUninterruptibly(maxInFlight);
    }
    synchronized (failed) {
      return List.copyOf(failed);
    }
  }

  private Outcome status(JobOutcome.Ending ending, Totals totals) {
    return JobOutcome.status(
        ReshapeJob.Kind.COPY, false, config.failures().maxBadRows(), ending, totals);
  }
}
