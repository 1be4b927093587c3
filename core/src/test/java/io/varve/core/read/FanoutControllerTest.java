package io.varve.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class FanoutControllerTest {

  @ParameterizedTest(name = "initial {0}, max {1}, {2} event buckets -> {3}")
  @CsvSource({
    "8, 64, 4, 8", // the Netflix default of 8 partitions
    "8, 64, 1, 8",
    "8, 64, 16, 16", // never less than one time bucket's partitions
    "2, 6, 8, 6", // ... unless that is more than the maximum
    "8, 8, 64, 8",
  })
  void starts_at_initial_fanout(int initial, int max, int eventBuckets, int expected) {
    assertThat(new FanoutController(initial, max).window(eventBuckets)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0} event buckets, reads needing {1} partitions")
  @CsvSource({"1, 1", "2, 1", "4, 1", "8, 1", "2, 2", "4, 4", "8, 8"})
  void shrinks_for_dense_reads_down_to_one_time_bucket(int eventBuckets, int used) {
    // Every read filled its page from the first time bucket (or less of it).
    FanoutController fanout = new FanoutController(16, 64);
    int previous = fanout.window(eventBuckets);
    for (int i = 0; i < 100; i++) {
      fanout.record(used);
      int window = fanout.window(eventBuckets);
      assertThat(window)
          .as("after %d dense reads", i + 1)
          .isLessThanOrEqualTo(previous)
          .isGreaterThanOrEqualTo(eventBuckets);
      previous = window;
    }
    // the learned mean is used + (16 - used) * 0.8^100, within 1e-8 of used: one bucket's worth
    assertThat(previous).isEqualTo(eventBuckets);
  }

  @Test
  void shrinks_within_a_few_reads() {
    FanoutController fanout = new FanoutController(16, 64);
    // mean after n reads of 1 partition: 1 + 15 * 0.8^n, at most 4 from the 8th read on
    for (int i = 0; i < 8; i++) {
      fanout.record(1);
    }
    assertThat(fanout.window(4)).isEqualTo(4);
  }

  @Test
  void never_goes_below_one_partition_even_for_reads_that_used_none() {
    FanoutController fanout = new FanoutController(4, 16);
    for (int i = 0; i < 200; i++) {
      fanout.record(0);
      assertThat(fanout.window(1)).isGreaterThanOrEqualTo(1);
    }
    assertThat(fanout.window(1)).isEqualTo(1);
  }

  @Test
  void grows_for_sparse_reads_up_to_max() {
    FanoutController fanout = new FanoutController(8, 32);
    int previous = fanout.window(4);
    // Each read needed 32 partitions. The mean is 32 - 24 * 0.8^n: above 31 after 15 reads.
    for (int i = 0; i < 20; i++) {
      fanout.record(32);
      int window = fanout.window(4);
      assertThat(window)
          .as("after %d sparse reads", i + 1)
          .isGreaterThanOrEqualTo(previous)
          .isLessThanOrEqualTo(32);
      previous = window;
    }
    assertThat(previous).isEqualTo(32);
  }

  @Test
  void caps_growth_at_max_however_many_partitions_reads_needed() {
    FanoutController fanout = new FanoutController(8, 32);
    fanout.record(10_000);

    assertThat(fanout.window(4)).isEqualTo(32);
    assertThat(fanout.initial()).isEqualTo(8);
  }

  @ParameterizedTest(name = "initial {0}, max {1}")
  @CsvSource({"0, 8", "-1, 8", "8, 7"})
  void refuses_initial_below_one_or_above_max(int initial, int max) {
    assertThatThrownBy(() -> new FanoutController(initial, max))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
