package io.varve.reshaper.job;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import io.varve.reshaper.cluster.Cluster;
import io.varve.reshaper.compaction.CompactionControl;
import io.varve.reshaper.compaction.MajorCompaction;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.RangeResult;
import io.varve.reshaper.copy.RangeTask;
import io.varve.reshaper.plan.CopyMode;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.Planner;
import io.varve.reshaper.plan.TableSchema;
import io.varve.reshaper.plan.TokenRange;
import io.varve.reshaper.savepoint.Savepoint;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.spark.SparkConf;
import org.apache.spark.api.java.JavaFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.CollectionAccumulator;
import org.apache.spark.util.LongAccumulator;

/**
 * Runs one job: checks it against both schemas before anything is written, then copies (or
 * validates) the token ranges not yet done, with a live progress line, savepoints, the
 * bad-rows file and the failure threshold. Progress goes to {@code err}, the summary to
 * {@code out}.
 */
public final class ReshapeJob {

  /** What the job does with the rows it reads. */
  public enum Kind {
    /** Write them to the target. */
    COPY,
    /** Compare them with the target. */
    VALIDATE
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
  public ExitStatus run(Kind kind, boolean copyMissing) {
    String verb = kind == Kind.COPY ? "migrate" : "validate";
    err.println(verb + ": " + config.source().redacted());
    err.println(verb + ": " + config.target().redacted());
    config.warnings().forEach(w -> err.println(verb + ": warning: " + w));
    Map<String, String> common = commonCassandraOptions();
    Cluster source = new Cluster(config.source(), common);
    Cluster target = new Cluster(config.target(), common);
    try (CqlSession in = source.open(); CqlSession outSession = target.open()) {
      String partitioner = in.getMetadata().getTokenMap()
          .map(tokens -> tokens.getPartitionerName()).orElse("unknown");
      if (!partitioner.endsWith("Murmur3Partitioner")) {
        throw new ConfigException("source.host", config.source().hosts() + " uses " + partitioner,
            "a cluster with Murmur3Partitioner, the only partitioner whose ring the job splits");
      }
      TableMetadata sourceTable = source.table(in);
      TableMetadata targetTable = target.table(outSession);
      MigrationPlan plan = new Planner(config, TableSchema.of(sourceTable),
          TableSchema.of(targetTable)).plan();
      prepareAll(in, outSession, plan);
      int splits = config.source().splitCount() > 0 ? config.source().splitCount()
          : Math.max(64, 256 * in.getMetadata().getNodes().size());
      List<TokenRange> all = TokenRange.split(splits);
      Path savepoints = Path.of(config.savepoints().path());
      Savepoint savepoint = kind == Kind.COPY
          ? Savepoint.open(savepoints, config.jobName(), plan.fingerprint(), splits) : null;
      List<TokenRange> todo = all.stream()
          .filter(r -> savepoint == null || !savepoint.isDone(r.index())).toList();
      int already = all.size() - todo.size();
      err.printf(Locale.ROOT, "%s: plan: mode %s, %d token ranges, %d already done (%s)%s%n",
          verb, plan.mode(), splits, already, savepoint == null ? "no savepoint"
              : savepoint.file(), plan.resolution().onConflict() == null ? ""
              : ", onConflict " + plan.resolution().onConflict());
      if (todo.isEmpty()) {
        out.println(verb + ": nothing to do: all " + splits + " token ranges are recorded as done"
            + " in " + savepoint.file() + "; delete it to copy again");
        return ExitStatus.OK;
      }
      CompactionControl compaction = null;
      String original = null;
      if (kind == Kind.COPY && config.compaction().disableDuringLoad()) {
        compaction = new CompactionControl(outSession, config.target().qualifiedTable(),
            config.target().isScylla(), savepoints.resolve(config.jobName() + ".compaction"));
        original = compaction.disable(targetTable);
        err.println(verb + ": compaction of " + config.target().qualifiedTable()
            + " disabled for the load; it will be restored to " + original);
      }
      ExitStatus status;
      try {
        status = runRanges(kind, copyMissing, source, target, plan, all, todo, already,
            savepoint);
      } finally {
        if (compaction != null) {
          compaction.restore(original);
          err.println(verb + ": compaction of " + config.target().qualifiedTable()
              + " restored");
        }
      }
      if (kind == Kind.COPY && status.code() <= 1 && config.compaction().majorCompactionAfter()) {
        majorCompaction(outSession);
      }
      return status;
    } catch (ConfigException e) {
      err.println(verb + ": error: " + e.getMessage());
      err.println(verb + ": nothing was written");
      return ExitStatus.INVALID_INPUT;
    } catch (RuntimeException e) {
      out.println(verb + ": failed: " + e);
      out.println(verb + ": finished ranges are recorded; rerun the same command to resume");
      return ExitStatus.FATAL;
    }
  }

  private ExitStatus runRanges(Kind kind, boolean copyMissing, Cluster source, Cluster target,
      MigrationPlan plan, List<TokenRange> all, List<TokenRange> todo, int already,
      Savepoint savepoint) {
    String verb = kind == Kind.COPY ? "migrate" : "validate";
    JavaSparkContext jsc = JavaSparkContext.fromSparkContext(
        SparkSupport.session(config.spark()).sparkContext());
    int parallelism = Math.max(1, jsc.defaultParallelism());
    RangeTask task = new RangeTask(source.connector(), target.connector(), plan, config,
        config.rateLimit().rowsPerSecond() / (double) parallelism,
        config.rateLimit().megabytesPerSecond() * 1e6 / parallelism);
    LongAccumulator rowsRead = jsc.sc().longAccumulator("varve rows read");
    LongAccumulator badRows = jsc.sc().longAccumulator("varve bad rows");
    CollectionAccumulator<String> badLines = jsc.sc().collectionAccumulator("varve bad row lines");
    String group = "varve-" + UUID.randomUUID();
    jsc.setJobGroup(group, "varve " + verb + " " + config.jobName(), true);
    RangeListener listener = new RangeListener(group, todo,
        plan.mode() == CopyMode.SHUFFLE ? null : savepoint);
    jsc.sc().addSparkListener(listener);
    boolean validate = kind == Kind.VALIDATE;
    JavaRDD<TokenRange> ranges = jsc.parallelize(todo, todo.size());
    JavaRDD<RangeResult> results;
    if (plan.mode() == CopyMode.SHUFFLE) {
      var rule = task.rule();
      results = ranges.flatMapToPair(r -> {
        var keyed = task.readKeyed(r);
        rowsRead.add(keyed.size());
        return keyed.iterator();
      })
          .reduceByKey(rule::pick, Math.max(parallelism * 4, todo.size() / 4))
          .values()
          .mapPartitions(rows -> List.of(count(task.handleResolved(rows, validate, copyMissing),
              rowsRead, badRows, badLines)).iterator());
    } else {
      results = ranges.map(r -> count(validate ? task.validate(r, copyMissing) : task.copy(r),
          rowsRead, badRows, badLines));
    }
    Progress progress = new Progress(verb, all.size(), already, listener::done, rowsRead::value);
    JavaFutureAction<List<RangeResult>> future = results.collectAsync();
    boolean tooManyBadRows = false;
    long lastProgress = System.nanoTime();
    long lastSave = System.nanoTime();
    List<RangeResult> done;
    try {
      while (true) {
        try {
          done = future.get(200, TimeUnit.MILLISECONDS);
          break;
        } catch (TimeoutException stillRunning) {
          long now = System.nanoTime();
          if (config.progressIntervalSeconds() > 0
              && now - lastProgress >= TimeUnit.SECONDS.toNanos(config.progressIntervalSeconds())) {
            progress.print(err);
            lastProgress = now;
          }
          if (savepoint != null
              && now - lastSave >= TimeUnit.SECONDS.toNanos(config.savepoints().intervalSeconds())) {
            savepoint.flush();
            lastSave = now;
          }
          if (!tooManyBadRows && badRows.value() > config.failures().maxBadRows()) {
            tooManyBadRows = true;
            jsc.cancelJobGroup(group);
          }
        }
      }
    } catch (ExecutionException | InterruptedException e) {
      if (savepoint != null) {
        savepoint.flush();
      }
      jsc.sc().removeSparkListener(listener);
      if (tooManyBadRows) {
        writeBadRows(badLines.value(), verb);
        out.printf(Locale.ROOT, "%s: aborted: %,d bad rows, more than failures.maxBadRows=%d;"
            + " see %s%n", verb, badRows.value(), config.failures().maxBadRows(), badRowsPath());
        return ExitStatus.TOO_MANY_BAD_ROWS;
      }
      String message = String.valueOf(e.getCause() == null ? e : e.getCause().getMessage());
      int conflict = message.indexOf("reshape conflict:");
      if (conflict >= 0) {
        String detail = message.substring(conflict);
        int end = detail.indexOf('\n');
        out.println(verb + ": aborted: " + (end > 0 ? detail.substring(0, end) : detail));
        return ExitStatus.RESHAPE_CONFLICT;
      }
      out.println(verb + ": failed: " + message.lines().findFirst().orElse(message));
      out.println(verb + ": finished ranges are recorded; rerun the same command to resume");
      return ExitStatus.FATAL;
    }
    jsc.sc().removeSparkListener(listener);
    if (savepoint != null) {
      if (plan.mode() == CopyMode.SHUFFLE) {
        todo.forEach(r -> savepoint.markDone(r.index()));
      }
      savepoint.flush();
    }
    return summarize(kind, copyMissing, done, progress, all.size(), already, rowsRead.value());
  }

  private static RangeResult count(RangeResult r, LongAccumulator rowsRead,
      LongAccumulator badRows, CollectionAccumulator<String> badLines) {
    rowsRead.add(r.rowsRead());
    badRows.add(r.badRows());
    r.badRowLines().forEach(badLines::add);
    return r;
  }

  private ExitStatus summarize(Kind kind, boolean copyMissing, List<RangeResult> results,
      Progress progress, int total, int already, long read) {
    long written = 0;
    long bad = 0;
    long missing = 0;
    long mismatched = 0;
    List<String> badLines = new ArrayList<>();
    List<String> samples = new ArrayList<>();
    for (RangeResult r : results) {
      written += r.rowsWritten();
      bad += r.badRows();
      missing += r.missing();
      mismatched += r.mismatched();
      badLines.addAll(r.badRowLines());
      samples.addAll(r.samples());
    }
    double seconds = progress.elapsedSeconds();
    String verb = kind == Kind.COPY ? "migrate" : "validate";
    if (bad > 0) {
      writeBadRows(badLines, verb);
    }
    if (kind == Kind.COPY) {
      out.printf(Locale.ROOT, "migrate: done: ranges %d/%d (%d done by earlier runs), rows read"
          + " %,d, rows written %,d, bad rows %,d, %.1f s, %,.0f rows/s%n", total, total, already,
          read, written, bad, seconds, read / Math.max(seconds, 0.001));
      if (bad > 0) {
        out.println("migrate: bad rows are in " + badRowsPath());
      }
      if (bad > config.failures().maxBadRows()) {
        out.printf(Locale.ROOT, "migrate: %,d bad rows, more than failures.maxBadRows=%d%n", bad,
            config.failures().maxBadRows());
        return ExitStatus.TOO_MANY_BAD_ROWS;
      }
      return bad > 0 ? ExitStatus.COMPLETED_WITH_BAD_ROWS : ExitStatus.OK;
    }
    out.printf(Locale.ROOT, "validate: done: rows checked %,d, missing %,d, mismatched %,d%s,"
        + " %.1f s%n", read, missing, mismatched,
        copyMissing ? ", missing rows copied " + written : "", seconds);
    int shown = 0;
    for (String s : samples) {
      if (shown++ >= config.validation().failuresToFetch()) {
        break;
      }
      out.println("validate:   " + s);
    }
    boolean differs = mismatched > 0 || (missing > 0 && !copyMissing) || bad > 0;
    return differs ? ExitStatus.DIFFERENCES_FOUND : ExitStatus.OK;
  }

  private Path badRowsPath() {
    return config.failures().badRowsPath() != null ? Path.of(config.failures().badRowsPath())
        : Path.of(config.savepoints().path()).resolve(config.jobName() + ".bad-rows");
  }

  private void writeBadRows(List<String> lines, String verb) {
    Path file = badRowsPath();
    try {
      Files.createDirectories(file.toAbsolutePath().getParent());
      List<String> text = new ArrayList<>();
      text.add("# " + verb + " " + config.jobName() + " at " + Instant.now());
      text.addAll(lines);
      Files.write(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE,
          StandardOpenOption.APPEND);
    } catch (IOException e) {
      err.println(verb + ": cannot write bad rows to " + file + ": " + e.getMessage());
    }
  }

  private void prepareAll(CqlSession in, CqlSession outSession, MigrationPlan plan) {
    try {
      in.prepare(plan.source().selectCql());
    } catch (RuntimeException e) {
      throw new ConfigException(config.source().where() != null ? "source.where" : "source",
          config.source().where() != null ? config.source().where() : plan.source().selectCql(),
          "a condition the source accepts; it said: " + e.getMessage());
    }
    outSession.prepare(plan.target().insertCql());
  }

  private Map<String, String> commonCassandraOptions() {
    Map<String, String> common = new LinkedHashMap<>(config.spark());
    for (var e : new SparkConf(true).getAll()) {
      if (e._1().startsWith("spark.cassandra.")) {
        common.put(e._1(), e._2());
      }
    }
    return common;
  }

  private void majorCompaction(CqlSession session) {
    for (Node node : session.getMetadata().getNodes().values()) {
      String host = node.getBroadcastRpcAddress().map(a -> a.getAddress().getHostAddress())
          .orElse(node.getEndPoint().resolve().toString());
      InetSocketAddress jmx = new InetSocketAddress(host, config.compaction().jmxPort());
      try {
        err.println("migrate: major compaction of " + config.target().qualifiedTable() + " on "
            + host + ":" + jmx.getPort() + "...");
        MajorCompaction.run(jmx, config.compaction().jmxUsername(),
            config.compaction().jmxPassword(), config.target().keyspace(),
            config.target().table());
      } catch (Exception e) {
        err.println("migrate: warning: major compaction on " + host + ":" + jmx.getPort()
            + " failed (" + e + "); run nodetool compact " + config.target().keyspace() + " "
            + config.target().table() + " on each node");
      }
    }
    err.println("migrate: major compaction done");
  }
}
