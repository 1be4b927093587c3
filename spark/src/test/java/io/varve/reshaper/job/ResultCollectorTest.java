package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRowsFile;
import io.varve.reshaper.copy.RangeResult;
import io.varve.reshaper.copy.RangeResult.Differences;
import io.varve.reshaper.savepoint.Savepoint;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The driver counts each task's result once, writes its bad rows, then records its range. */
class ResultCollectorTest {
  @TempDir Path dir;

  private static RangeResult result(int range, boolean complete, int badRows) {
    List<BadRow> bad =
        java.util.stream.IntStream.range(0, badRows)
            .mapToObj(
                i ->
                    new BadRow(
                        "INSERT INTO ks.t (k) VALUES (" + (range * 100 + i) + ")",
                        "WriteTimeoutException: timeout"))
            .toList();
    return new RangeResult(
        range,
        complete,
        50,
        50,
        bad,
        null,
        new Differences(1, 0, List.of("missing: {k=" + range + "}")));
  }

  @Test
  void a_result_delivered_twice_for_one_partition_counts_once() {
    Path file = dir.resolve("job.bad-rows");
    Savepoint savepoint = Savepoint.open(dir, "job", "f", 4);
    ResultCollector results = new ResultCollector(new BadRowsFile(file, "run"), savepoint, 10);

    assertThat(results.add(0, List.of(result(0, true, 2)))).isTrue();
    assertThat(results.add(1, List.of(result(1, true, 3)))).isTrue();
    // the same task again, as a second successful attempt would report it
    assertThat(results.add(1, List.of(result(1, true, 3)))).isFalse();

    Totals t = results.totals();
    assertThat(t.rangesCompleted()).isEqualTo(2);
    assertThat(t.rowsRead()).isEqualTo(100);
    assertThat(t.badRows()).isEqualTo(5);
    assertThat(t.missing()).isEqualTo(2);
    assertThat(t.samples()).containsExactly("missing: {k=0}", "missing: {k=1}");
    assertThat(BadRowsFile.read(file)).hasSize(5).doesNotHaveDuplicates();
    assertThat(savepoint.doneRanges()).containsExactly(0, 1);
  }

  @Test
  void a_range_stopped_early_is_counted_and_its_bad_rows_written_but_not_recorded() {
    Path file = dir.resolve("job.bad-rows");
    Savepoint savepoint = Savepoint.open(dir, "job", "f", 4);
    ResultCollector results = new ResultCollector(new BadRowsFile(file, "run"), savepoint, 1);

    results.add(2, List.of(result(2, false, 4)));

    assertThat(results.totals().badRows()).isEqualTo(4);
    assertThat(results.totals().rangesCompleted()).isZero();
    assertThat(BadRowsFile.read(file)).hasSize(4);
    assertThat(savepoint.doneRanges()).isEmpty();
  }

  @Test
  void a_task_of_several_ranges_records_each_range_it_finished_and_not_the_one_it_stopped_in() {
    Path file = dir.resolve("job.bad-rows");
    Savepoint savepoint = Savepoint.open(dir, "job", "f", 8);
    ResultCollector results = new ResultCollector(new BadRowsFile(file, "run"), savepoint, 10);

    assertThat(results.add(0, List.of(result(4, true, 1), result(5, true, 0), result(6, false, 2))))
        .isTrue();
    assertThat(results.add(0, List.of(result(4, true, 1)))).isFalse();

    Totals t = results.totals();
    assertThat(t.rangesCompleted()).isEqualTo(2);
    assertThat(t.rowsRead()).isEqualTo(150);
    assertThat(t.badRows()).isEqualTo(3);
    assertThat(BadRowsFile.read(file)).hasSize(3).doesNotHaveDuplicates();
    assertThat(savepoint.doneRanges()).containsExactly(4, 5);
  }
}
