package io.varve.cassandra.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.partitioning.CompactionPolicy.Closed;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SliceCompactionsTest {

  @ParameterizedTest(name = "[{index}] write life {0}: windows of {2} {1}")
  @CsvSource({
    "PT1H, MINUTES, 3",
    "PT3H, MINUTES, 8",
    "PT38H, HOURS, 2",
    "PT62H, HOURS, 3",
    "P30D, DAYS, 2",
    "PT1M, MINUTES, 1"
  })
  void time_windows_divide_the_write_life_in_about_24_rounded_up_to_whole_units(
      Duration writeLife, String unit, long size) {
    Map<String, Object> options = SliceCompactions.timeWindow(writeLife);

    assertThat(options)
        .containsEntry("class", "TimeWindowCompactionStrategy")
        .containsEntry("compaction_window_unit", unit)
        .containsEntry("compaction_window_size", size);
  }

  @ParameterizedTest(name = "[{index}] {0} {1} on {2}: {3}")
  @CsvSource({
    "false, 5.0.2, AUTO, UnifiedCompactionStrategy",
    "false, 4.1.7, AUTO, LeveledCompactionStrategy",
    "true, 2025.1.3, AUTO, IncrementalCompactionStrategy",
    "true, 6.2.1, AUTO, LeveledCompactionStrategy",
    "false, 5.0.2, LEVELED, LeveledCompactionStrategy",
    "true, 6.2.1, SIZE_TIERED, SizeTieredCompactionStrategy",
    "false, 4.0.0, UNIFIED, UnifiedCompactionStrategy"
  })
  void auto_chooses_the_backends_read_optimised_strategy(
      boolean scylla, String version, Closed closed, String expected) {
    SliceCompactions.Backend backend =
        scylla
            ? SliceCompactions.Backend.scylla(version)
            : SliceCompactions.Backend.cassandra(version);

    assertThat(SliceCompactions.closedClass(closed, backend)).isEqualTo(expected);
    assertThat(SliceCompactions.closed(closed, backend)).containsEntry("class", expected);
  }

  @Test
  void unified_compaction_is_set_to_its_levelled_mode() {
    assertThat(SliceCompactions.closed(Closed.UNIFIED, SliceCompactions.Backend.cassandra("5.0.2")))
        .containsEntry("scaling_parameters", "L10");
  }

  @Test
  void a_schema_class_name_is_shown_without_its_package() {
    assertThat(
            SliceCompactions.simpleName(
                "org.apache.cassandra.db.compaction.UnifiedCompactionStrategy"))
        .isEqualTo("UnifiedCompactionStrategy");
  }
}
