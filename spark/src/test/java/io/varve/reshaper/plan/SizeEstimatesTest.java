package io.varve.reshaper.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** source.splitSizeInMB: a table's size from a node's estimates, and the ranges it asks for. */
class SizeEstimatesTest {

  @Test
  void a_node_holding_a_quarter_of_the_ring_speaks_for_a_quarter_of_the_table() {
    long quarter = Long.MIN_VALUE / 2; // -2^62: (MIN, MIN/2] is a quarter of the ring
    List<SizeEstimates.Range> ranges =
        List.of(
            new SizeEstimates.Range(Long.MIN_VALUE, quarter, 1000, 100_000),
            new SizeEstimates.Range(5, 5, 0, 0));
    // 100 MB on a quarter: 400 MB in all (the empty range covers the whole ring: no, width 2^64)
    assertThat(SizeEstimates.tableBytes(ranges.subList(0, 1))).isEqualTo(400_000_000L);
  }

  @Test
  void a_range_that_wraps_around_the_ring_counts_its_two_ends() {
    // (2^62, -2^62]: from a quarter past zero round to a quarter before: half the ring
    SizeEstimates.Range wrapping =
        new SizeEstimates.Range(Long.MAX_VALUE / 2 + 1, Long.MIN_VALUE / 2, 10, 1000);
    assertThat(SizeEstimates.tableBytes(List.of(wrapping))).isEqualTo(20_000L);
  }

  @Test
  void no_rows_or_no_data_is_no_estimate() {
    assertThat(SizeEstimates.tableBytes(List.of())).isZero();
    assertThat(SizeEstimates.tableBytes(List.of(new SizeEstimates.Range(0, 100, 0, 0)))).isZero();
  }

  @Test
  void the_split_count_rounds_up_and_stays_within_bounds() {
    assertThat(SizeEstimates.splits(1L << 30, 64)).isEqualTo(16);
    assertThat(SizeEstimates.splits((1L << 30) + 1, 64)).isEqualTo(17);
    assertThat(SizeEstimates.splits(10, 64)).isEqualTo(1);
    assertThat(SizeEstimates.splits(Long.MAX_VALUE, 1)).isEqualTo(1_000_000);
  }
}
