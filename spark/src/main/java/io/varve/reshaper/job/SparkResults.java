package io.varve.reshaper.job;

import io.varve.reshaper.copy.RangeResult;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.spark.SimpleFutureAction;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.apache.spark.rdd.RDD;
import scala.collection.Iterator;
import scala.collection.JavaConverters;
import scala.runtime.AbstractFunction0;
import scala.runtime.AbstractFunction1;
import scala.runtime.AbstractFunction2;
import scala.runtime.BoxedUnit;

/**
 * A Spark job of one list of {@link RangeResult}s per partition (a result per unit the task
 * finished) whose results reach the driver as each task commits, not all at the end: Spark hands
 * the result of a partition to the driver once, when the first attempt that succeeds for it ends.
 * The driver drains them with {@link #drain}.
 */
final class SparkResults {
  private final JavaSparkContext jsc;
  private final String group;
  private final Queue<Map.Entry<Integer, List<RangeResult>>> arrived =
      new ConcurrentLinkedQueue<>();
  private final SimpleFutureAction<BoxedUnit> job;

  private SparkResults(
      JavaSparkContext jsc, JavaRDD<List<RangeResult>> results, String group, String description) {
    this.jsc = jsc;
    this.group = group;
    jsc.setJobGroup(group, description, true);
    List<Object> partitions = new ArrayList<>();
    for (int i = 0; i < results.getNumPartitions(); i++) {
      partitions.add(i);
    }
    RDD<List<RangeResult>> rdd = results.rdd();
    this.job =
        jsc.sc()
            .submitJob(
                rdd,
                new OnlyResult(),
                JavaConverters.asScalaBuffer(partitions).toSeq(),
                new AbstractFunction2<Object, List<RangeResult>, BoxedUnit>() {
                  @Override
                  public BoxedUnit apply(Object partition, List<RangeResult> result) {
                    arrived.add(Map.entry((Integer) partition, result));
                    return BoxedUnit.UNIT;
                  }
                },
                new AbstractFunction0<BoxedUnit>() {
                  @Override
                  public BoxedUnit apply() {
                    return BoxedUnit.UNIT;
                  }
                });
  }

  /** Starts {@code results} as a job of group {@code group}. */
  static SparkResults submit(
      JavaSparkContext jsc, JavaRDD<List<RangeResult>> results, String group, String description) {
    return new SparkResults(jsc, results, group, description);
  }

  /** The (partition, result) pairs that arrived since the last call. */
  List<Map.Entry<Integer, List<RangeResult>>> drain() {
    List<Map.Entry<Integer, List<RangeResult>>> out = new ArrayList<>();
    for (Map.Entry<Integer, List<RangeResult>> e; (e = arrived.poll()) != null; ) {
      out.add(e);
    }
    return out;
  }

  /** True once the job succeeded, failed or was cancelled. */
  boolean done() {
    return job.isCompleted();
  }

  /** Once {@link #done}: the error that ended the job, or null when every task returned. */
  Throwable failure() {
    scala.util.Try<BoxedUnit> outcome = job.value().get();
    return outcome.isFailure() ? outcome.failed().get() : null;
  }

  /** Cancels the job's tasks; {@link #done} turns true soon after. */
  void cancel() {
    jsc.cancelJobGroup(group);
  }

  /** The task's work: a partition holds one list of results. */
  private static final class OnlyResult
      extends AbstractFunction1<Iterator<List<RangeResult>>, List<RangeResult>>
      implements Serializable {
    private static final long serialVersionUID = 1L;

    @Override
    public List<RangeResult> apply(Iterator<List<RangeResult>> partition) {
      return partition.next();
    }
  }
}
