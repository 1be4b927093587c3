package io.varve.bench.result;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.bench.Results;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultMergeTest {
  @TempDir Path dir;

  @Test
  void merged_percentiles_come_from_added_histograms_not_averaged_percentiles() throws Exception {
    // Loader a: 9,900 fast reads (1 ms). Loader b: 100 slow reads (100 ms).
    // Averaging the two p99s would give 50.5 ms; the true p99 of the 10,000 reads is 1 ms,
    // and the true p99.9 is 100 ms.
    Histogram fast = Results.histogram(9_900, i -> 1_000);
    Histogram slow = Results.histogram(100, i -> 100_000);
    RunResult a =
        Results.result(
            "a", 1_000_000, 10_000, "READ", fast, fast, Map.of("ERROR", 2L), List.of(fast));
    RunResult b =
        Results.result(
            "b",
            1_000_000,
            10_000,
            "READ",
            slow,
            slow,
            Map.of("ERROR", 1L, "READ_TIMEOUT", 4L),
            List.of(slow));
    ResultFiles.write(dir.resolve("a.json"), a);
    ResultFiles.write(dir.resolve("b.json"), b);

    RunResult merged =
        ResultMerge.merge(
            List.of(
                ResultFiles.read(dir.resolve("a.json")), ResultFiles.read(dir.resolve("b.json"))));

    OperationResult read = merged.operations().get("READ");
    assertThat(read.count()).isEqualTo(10_000);
    assertThat(read.intended().p99Us()).isBetween(999L, 1_001L);
    assertThat(read.intended().p999Us()).isBetween(99_900L, 100_100L);
    assertThat(read.errors()).containsEntry("ERROR", 3L).containsEntry("READ_TIMEOUT", 4L);
    assertThat(merged.loaders()).isEqualTo(2);
    assertThat(merged.threads()).isEqualTo(8);
    assertThat(merged.throughput()).isEqualTo(1_000.0);
    // The loaders' seconds line up by wall clock: one merged second holding both.
    assertThat(merged.timeline()).hasSize(1);
    assertThat(merged.timeline().get(0).operations().get("READ").count()).isEqualTo(10_000);
    assertThat(merged.timeline().get(0).operations().get("READ").p99IntendedUs())
        .isBetween(999L, 1_001L);
  }

  @Test
  void refuses_to_merge_different_phases() {
    Histogram h = Results.histogram(10, i -> 5);
    RunResult run = Results.result("a", 0, 1000, "READ", h, h, Map.of(), List.of());
    RunResult load =
        new RunResult(
            run.format(),
            "b",
            run.binding(),
            "load",
            run.workload(),
            run.properties(),
            1,
            0,
            1,
            "h",
            0,
            1000,
            10,
            run.operations(),
            Map.of(),
            List.of(),
            0);
    assertThatThrownBy(() -> ResultMerge.merge(List.of(run, load)))
        .hasMessageContaining("cannot merge");
  }

  @Test
  void a_file_that_is_not_a_result_is_named() throws Exception {
    Path bad = dir.resolve("bad.json");
    Files.writeString(bad, "{\"hello\": 1}");
    assertThatThrownBy(() -> ResultFiles.read(bad)).hasMessageContaining(bad.toString());
    Path broken = dir.resolve("broken.json");
    Files.writeString(broken, "{not json");
    assertThatThrownBy(() -> ResultFiles.read(broken)).hasMessageContaining(broken.toString());
  }

  @Test
  void histograms_survive_encoding() {
    Histogram h = Results.histogram(5_000, i -> 1 + i * 37L);
    Histogram back = HistogramCodec.decode("x", HistogramCodec.encode(h));
    assertThat(back).isEqualTo(h);
    assertThatThrownBy(
            () -> HistogramCodec.decode("READ.intendedHistogram", "bm90IGEgaGlzdG9ncmFt"))
        .hasMessageContaining("READ.intendedHistogram");
  }
}
