package io.varve.reshaper.job;

import io.varve.reshaper.plan.TokenRange;
import io.varve.reshaper.savepoint.Savepoint;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerTaskEnd;
import scala.collection.JavaConverters;

/**
 * Records a token range as done when the Spark task that copied it succeeds: the task returns
 * only after all its writes were acknowledged. Task {@code i} of the job's stage handles
 * {@code ranges.get(i)}.
 */
final class RangeListener extends SparkListener {
  private final String jobGroup;
  private final List<TokenRange> ranges;
  private final Savepoint savepoint;
  private final Set<Integer> stages = ConcurrentHashMap.newKeySet();
  private final AtomicLong done = new AtomicLong();

  RangeListener(String jobGroup, List<TokenRange> ranges, Savepoint savepoint) {
    this.jobGroup = jobGroup;
    this.ranges = ranges;
    this.savepoint = savepoint;
  }

  long done() {
    return done.get();
  }

  @Override
  public void onJobStart(SparkListenerJobStart jobStart) {
    if (jobGroup.equals(jobStart.properties().getProperty("spark.jobGroup.id"))) {
      // The first stage reads the ranges (the only stage unless rows are shuffled).
      JavaConverters.seqAsJavaList(jobStart.stageIds()).stream().map(s -> (Integer) s)
          .min(Integer::compare).ifPresent(stages::add);
    }
  }

  @Override
  public void onTaskEnd(SparkListenerTaskEnd taskEnd) {
    if (stages.contains(taskEnd.stageId()) && taskEnd.taskInfo().successful()) {
      int index = taskEnd.taskInfo().index();
      if (index < ranges.size()) {
        done.incrementAndGet();
        if (savepoint != null) {
          savepoint.markDone(ranges.get(index).index());
        }
      }
    }
  }
}
