package io.varve.reshaper.job;

import io.varve.reshaper.copy.ConflictRule;
import io.varve.reshaper.copy.RangeResult;
import io.varve.reshaper.copy.RangeTask;
import io.varve.reshaper.plan.WorkUnit;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The Spark work of a run: one task per unit of work (token range, file) that returns its {@link
 * RangeResult}, or in {@code SHUFFLE} mode a read stage whose rows are grouped by target key and
 * resolved, then written by tasks that each return one result.
 */
final class RangePipeline {

  /**
   * Live figures of a {@code SHUFFLE} read stage, for the progress line only: a read task that
   * Spark runs again counts again. The summary's counts come from the results.
   */
  record ReadProgress(LongAccumulator ranges, LongAccumulator rows) {}

  private RangePipeline() {}

  /** The results of {@code todo} in modes DIRECT and IN_PARTITION: partition i is range i. */
  static JavaRDD<RangeResult> perRange(
      JavaSparkContext jsc,
      RangeTask task,
      List<WorkUnit> todo,
      boolean validate,
      boolean copyMissing) {
    return jsc.parallelize(todo, todo.size())
        .map(r -> validate ? task.validate(r, copyMissing) : task.copy(r));
  }

  /** The results of {@code todo} in mode SHUFFLE, with the read stage's live progress. */
  static JavaRDD<RangeResult> shuffled(
      JavaSparkContext jsc,
      RangeTask task,
      List<WorkUnit> todo,
      boolean validate,
      boolean copyMissing,
      int partitions,
      ReadProgress progress) {
    ConflictRule rule = task.rule();
    LongAccumulator rangesRead = progress.ranges();
    LongAccumulator rowsRead = progress.rows();
    return jsc.parallelize(todo, todo.size())
        .flatMapToPair(
            r -> {
              var keyed = task.readKeyed(r);
              rangesRead.add(1);
              rowsRead.add(keyed.size());
              return keyed.iterator();
            })
        .reduceByKey(rule::merge, partitions)
        .values()
        .mapPartitions(
            rows -> List.of(task.handleResolved(rows, validate, copyMissing)).iterator());
  }

  /** Accumulators for {@link #shuffled}'s progress. */
  static ReadProgress readProgress(JavaSparkContext jsc) {
    return new ReadProgress(
        jsc.sc().longAccumulator("varve ranges read"), jsc.sc().longAccumulator("varve rows read"));
  }
}
