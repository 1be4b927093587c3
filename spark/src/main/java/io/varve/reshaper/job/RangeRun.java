package io.varve.reshaper.job;

import io.varve.reshaper.badrows.BadRowsFile;
import io.varve.reshaper.cluster.Cluster;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.CqlSource;
import io.varve.reshaper.copy.CqlTarget;
import io.varve.reshaper.copy.RangeResult;
import io.varve.reshaper.copy.RangeTask;
import io.varve.reshaper.copy.RowKey;
import io.varve.reshaper.copy.SourceReader;
import io.varve.reshaper.copy.TargetSide;
import io.varve.reshaper.dynamodb.DynamoDbSource;
import io.varve.reshaper.dynamodb.DynamoDbTarget;
import io.varve.reshaper.parquet.ParquetSource;
import io.varve.reshaper.parquet.ParquetTarget;
import io.varve.reshaper.plan.CopyMode;
import io.varve.reshaper.plan.TokenRange;
import io.varve.reshaper.savepoint.Savepoint;
import java.io.PrintStream;
import java.time.Instant;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The driver side of a run: starts the Spark job of the ranges still to do and, while it runs,
 * takes each task's result as it commits, prints progress, rewrites the savepoint and cancels the
 * job at a conflict or past {@code failures.maxBadRows} bad rows.
 */
final class RangeRun {
  private static final long POLL_MILLIS = 200;

  /**
   * How a run ended.
   *
   * @param ending {@code RAN} or {@code BROKE}
   * @param totals what the committed tasks counted
   * @param failure the first line of the error that broke the run, or null
   * @param seconds how long it took
   * @param throttled requests DynamoDB throttled, each then sent again after a backoff
   */
  record Result(
      JobOutcome.Ending ending, Totals totals, String failure, double seconds, long throttled) {}

  private final JobConfig config;
  private final ReshapeJob.Kind kind;
  private final boolean copyMissing;
  private final String verb;
  private final PreparedJob job;
  private final PrintStream err;

  RangeRun(
      JobConfig config,
      ReshapeJob.Kind kind,
      boolean copyMissing,
      PreparedJob job,
      PrintStream err) {
    this.config = config;
    this.kind = kind;
    this.copyMissing = copyMissing;
    this.verb = kind.verb();
    this.job = job;
    this.err = err;
  }

  /** Runs the job; {@code source} or {@code target} is null for a Parquet side. */
  Result run(Cluster source, Cluster target) {
    JavaSparkContext jsc =
        JavaSparkContext.fromSparkContext(SparkSupport.session(config.spark()).sparkContext());
    int parallelism = Math.max(1, jsc.defaultParallelism());
    LongAccumulator throttled = jsc.sc().longAccumulator("varve throttled requests");
    SourceReader reader =
        config.source().isParquet()
            ? new ParquetSource(job.plan(), config)
            : config.source().isDynamoDb()
                ? new DynamoDbSource(
                    job.plan(), config, job.readUnitsPerSecond() / parallelism, throttled)
                : new CqlSource(source.connector(), job.plan(), config);
    TargetSide side =
        config.target().isParquet()
            ? new ParquetTarget(job.plan(), config)
            : config.target().isDynamoDb()
                ? new DynamoDbTarget(
                    job.plan(), config, job.writeUnitsPerSecond() / parallelism, throttled)
                : new CqlTarget(target.connector(), job.plan(), config);
    RangeTask task =
        new RangeTask(
            reader,
            side,
            job.plan(),
            config,
            config.rateLimit().rowsPerSecond() / (double) parallelism,
            config.rateLimit().megabytesPerSecond() * 1e6 / parallelism);
    boolean shuffle = job.plan().mode() == CopyMode.SHUFFLE;
    Savepoint savepoint = job.savepoint();
    ResultCollector results =
        new ResultCollector(
            new BadRowsFile(
                config.badRowsPath(),
                "varve "
                    + verb
                    + " "
                    + config.jobName()
                    + " at "
                    + Instant.now()
                    + ": each bad row is"
                    + " a CQL statement after its error; replay with varve migrate replay or cqlsh -f"),
            shuffle ? null : savepoint,
            config.validation().failuresToFetch());
    boolean validate = kind == ReshapeJob.Kind.VALIDATE;
    JavaRDD<List<RangeResult>> rdd;
    Progress progress;
    if (shuffle) {
      RangePipeline.ReadProgress read = RangePipeline.readProgress(jsc);
      rdd =
          RangePipeline.shuffled(
              jsc,
              task,
              job.todo(),
              validate,
              copyMissing,
              Math.max(parallelism * 4, job.todo().size() / 4),
              read);
      progress = progress(read.ranges()::value, read.rows()::value);
    } else {
      rdd = RangePipeline.perRange(jsc, task, job.todo(), parallelism, validate, copyMissing);
      progress =
          progress(() -> results.totals().rangesCompleted(), () -> results.totals().rowsRead());
    }
    SparkResults spark =
        SparkResults.submit(
            jsc, rdd, "varve-" + UUID.randomUUID(), "varve " + verb + " " + config.jobName());
    Throwable failure = await(spark, results, progress, savepoint);
    Totals totals = results.totals();
    if (validate
        && failure == null
        && config.validation().targetOnlyRows()
        && totals.rangesCompleted() == job.todo().size()) {
      totals = targetOnly(jsc, task, totals);
    }
    if (savepoint != null) {
      boolean finished =
          failure == null
              && totals.conflict() == null
              && totals.badRows() <= config.failures().maxBadRows();
      if (shuffle && finished) {
        // a target row may depend on any range: ranges count as done only all together
        job.todo().forEach(r -> savepoint.markDone(r.index()));
      }
      savepoint.flush();
    }
    return new Result(
        failure == null ? JobOutcome.Ending.RAN : JobOutcome.Ending.BROKE,
        totals,
        failure == null ? null : firstLine(failure),
        progress.elapsedSeconds(),
        throttled.value());
  }

  /**
   * The totals with the target rows that no source row makes: the target keys every source row
   * makes (a second read of the source) subtracted from the keys the target holds, in Spark.
   */
  private Totals targetOnly(JavaSparkContext jsc, RangeTask task, Totals totals) {
    err.println(verb + ": looking for rows only in the target (validation.targetOnlyRows)");
    List<TokenRange> targetRanges = TokenRange.split(Math.max(64, job.ranges().size()));
    JavaRDD<RowKey> expected =
        jsc.parallelize(job.ranges(), job.ranges().size())
            .flatMap(u -> task.targetKeys(u).iterator());
    JavaRDD<RowKey> present =
        jsc.parallelize(targetRanges, targetRanges.size())
            .flatMap(r -> task.presentKeys(r).iterator());
    JavaRDD<RowKey> only = present.subtract(expected).cache();
    try {
      long count = only.count();
      List<String> samples =
          only.take(config.validation().failuresToFetch()).stream()
              .map(k -> "only in target: " + k.describe(job.plan()))
              .toList();
      return totals.withTargetOnly(count, samples);
    } finally {
      only.unpersist();
    }
  }

  private Progress progress(LongSupplier rangesDone, LongSupplier rowsRead) {
    return new Progress(verb, job.ranges().size(), job.alreadyDone(), rangesDone, rowsRead);
  }

  /** Takes results until the job ends; returns the error that ended it, or null. */
  private Throwable await(
      SparkResults spark, ResultCollector results, Progress progress, Savepoint savepoint) {
    long lastProgress = System.nanoTime();
    long lastSave = System.nanoTime();
    boolean cancelled = false;
    while (true) {
      boolean done = spark.done(); // before draining: then the last drain sees every result
      spark.drain().forEach(e -> results.add(e.getKey(), e.getValue()));
      Totals t = results.totals();
      if (!cancelled && (t.conflict() != null || t.badRows() > config.failures().maxBadRows())) {
        spark.cancel();
        cancelled = true;
      }
      if (done) {
        return spark.failure();
      }
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
      try {
        Thread.sleep(POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        spark.cancel();
        return e;
      }
    }
  }

  private static String firstLine(Throwable failure) {
    String message = String.valueOf(failure.getMessage());
    return message.lines().findFirst().orElse(message);
  }
}
