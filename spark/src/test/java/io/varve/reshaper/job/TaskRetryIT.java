package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRowsFile;
import io.varve.reshaper.copy.RangeResult;
import io.varve.reshaper.copy.RangeResult.Differences;
import io.varve.reshaper.savepoint.Savepoint;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.IntStream;
import org.apache.spark.TaskContext;
import org.apache.spark.api.java.JavaRDD;
import org.apache.spark.api.java.JavaSparkContext;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Embedded Spark tries a failed task again (each task up to 3 times): the task's result is still
 * counted once, and its bad rows are written once.
 */
class TaskRetryIT {
  /** Task attempts; the tasks run in this JVM. */
  static final AtomicInteger ATTEMPTS = new AtomicInteger();

  @TempDir Path dir;

  @Test
  void a_task_tried_again_counts_once_and_writes_its_bad_rows_once() throws Exception {
    JavaSparkContext jsc =
        JavaSparkContext.fromSparkContext(SparkSupport.session(Map.of()).sparkContext());
    JavaRDD<List<RangeResult>> tasks =
        jsc.parallelize(List.of(0, 1, 2, 3), 4)
            .map(
                range -> {
                  ATTEMPTS.incrementAndGet();
                  List<BadRow> bad =
                      IntStream.range(0, 2)
                          .mapToObj(
                              i ->
                                  new BadRow(
                                      "INSERT INTO ks.t (k) VALUES (" + (range * 10 + i) + ")",
                                      "E: failed"))
                          .toList();
                  if (range % 2 == 1 && TaskContext.get().attemptNumber() == 0) {
                    // the rows of this range were handled, then the task was lost
                    throw new IllegalStateException(
                        "connection lost after the writes of range " + range);
                  }
                  return List.of(
                      new RangeResult(range, true, 100, 98, bad, null, Differences.NONE));
                });
    Path file = dir.resolve("job.bad-rows");
    Savepoint savepoint = Savepoint.open(dir, "job", "f", 4);
    ResultCollector results = new ResultCollector(new BadRowsFile(file, "retry"), savepoint, 0);

    SparkResults spark = SparkResults.submit(jsc, tasks, "varve-retry-it", "task retry test");
    boolean done;
    do {
      done = spark.done();
      spark.drain().forEach(e -> results.add(e.getKey(), e.getValue()));
      Thread.sleep(50);
    } while (!done);

    assertThat(spark.failure()).isNull();
    assertThat(ATTEMPTS.get()).as("attempts: 4 tasks, 2 of them tried again").isEqualTo(6);
    Totals totals = results.totals();
    assertThat(totals.rowsRead()).isEqualTo(400);
    assertThat(totals.rowsWritten()).isEqualTo(392);
    assertThat(totals.badRows()).isEqualTo(8);
    assertThat(BadRowsFile.read(file)).hasSize(8).doesNotHaveDuplicates();
    assertThat(savepoint.doneRanges()).containsExactly(0, 1, 2, 3);
  }
}
