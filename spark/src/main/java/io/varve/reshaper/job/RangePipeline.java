package io.varve.reshaper.job;

import io.varve.reshaper.copy.ConflictRule;
import io.varve.reshaper.copy.RangeResult;
import io.varve.reshaper.copy.RangeTask;
import io.varve.reshaper.plan.WorkUnit;
import java.util.ArrayList;
import java.util.List;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.util.LongAccumulator;

/**
 * The Spark work of a run: tasks of a few consecutive units of work (token ranges, files) that
 * return a {@link RangeResult} per unit, or in {@code SHUFFLE} mode a read stage whose rows are
 * grouped by target key and resolved, then written by tasks that each return one result.
 */
final class RangePipeline {

  /**
   * Live figures of a {@code SHUFFLE} read stage, for the progress line only: a read task that
   * Spark runs again counts again. The summary's counts come from the results.
   */
  record ReadProgress(LongAccumulator ranges, LongAccumulator rows) {}

  /** Tasks per task slot that {@link #unitsPerTask} keeps at least, for balance at the end. */
  static final int TASKS_PER_SLOT = 4;

  /** The most units one task takes. */
  static final int MAX_UNITS_PER_TASK = 8;

  private RangePipeline() {}

  /**
   * The results of {@code todo} in modes DIRECT and IN_PARTITION: partition i is a run of
   * consecutive units ({@link #unitsPerTask}), with a result for each unit it finished.
   */
  static JavaRDD<List<RangeResult>> perRange(
      JavaSparkContext jsc,
      RangeTask task,
      List<WorkUnit> todo,
      int taskSlots,
      boolean validate,
      boolean copyMissing) {
    List<List<WorkUnit>> tasks = tasks(todo, unitsPerTask(todo.size(), taskSlots));
    return jsc.parallelize(tasks, tasks.size())
        .map(units -> validate ? task.validate(units, copyMissing) : task.copy(units));
  }

  /**
   * How many units a task takes: as many as keep {@value #TASKS_PER_SLOT} tasks per task slot, at
   * most {@value #MAX_UNITS_PER_TASK}. A unit of its own costs a task a start, a first page read
   * cold and a wait for its last writes; more units a task share those, but a task killed or tried
   * again redoes all of its units, and its units reach the savepoint only when it ends.
   */
  static int unitsPerTask(int units, int taskSlots) {
    long tasks = (long) Math.max(1, taskSlots) * TASKS_PER_SLOT;
    return (int) Math.max(1, Math.min(MAX_UNITS_PER_TASK, units / tasks));
  }

  /** {@code todo} in runs of {@code perTask} consecutive units, in order. */
  static List<List<WorkUnit>> tasks(List<WorkUnit> todo, int perTask) {
    List<List<WorkUnit>> tasks = new ArrayList<>();
    for (int i = 0; i < todo.size(); i += perTask) {
      tasks.add(new ArrayList<>(todo.subList(i, Math.min(todo.size(), i + perTask))));
    }
    return tasks;
  }

  /** The results of {@code todo} in mode SHUFFLE, with the read stage's live progress. */
  static JavaRDD<List<RangeResult>> shuffled(
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
            rows ->
                List.<List<RangeResult>>of(
                        List.of(task.handleResolved(rows, validate, copyMissing)))
                    .iterator());
  }

  /** Accumulators for {@link #shuffled}'s progress. */
  static ReadProgress readProgress(JavaSparkContext jsc) {
    return new ReadProgress(
        jsc.sc().longAccumulator("varve ranges read"), jsc.sc().longAccumulator("varve rows read"));
  }
}
