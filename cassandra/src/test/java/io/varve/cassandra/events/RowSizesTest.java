package io.varve.cassandra.events;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RowSizesTest {

  private long now = 1_000;
  private final RowSizes sizes = new RowSizes(() -> now);

  @Test
  void a_table_never_seen_is_assumed_to_hold_rows_of_a_mib() {
    assertThat(sizes.largest("k", "t")).isEqualTo(RowSizes.UNKNOWN_ROW_BYTES);
    assertThat(RowSizes.rows(sizes.largest("k", "t"), 201)).isEqualTo(4);
  }

  @Test
  void a_page_of_no_rows_teaches_nothing() {
    sizes.saw("k", "t", 0);

    assertThat(sizes.largest("k", "t")).isEqualTo(RowSizes.UNKNOWN_ROW_BYTES);
  }

  @Test
  void the_largest_row_seen_sizes_the_fetches_of_its_table_only() {
    sizes.saw("k", "t", 100);
    sizes.saw("k", "t", 2 << 20);
    sizes.saw("k", "t", 50);

    assertThat(sizes.largest("k", "t")).isEqualTo(2 << 20);
    assertThat(RowSizes.rows(sizes.largest("k", "t"), 201)).isEqualTo(2);
    assertThat(sizes.largest("k", "other")).isEqualTo(RowSizes.UNKNOWN_ROW_BYTES);
    assertThat(sizes.largest("other", "t")).isEqualTo(RowSizes.UNKNOWN_ROW_BYTES);
  }

  @Test
  void a_large_row_is_remembered_for_one_more_window_then_smaller_rows_count_again() {
    sizes.saw("k", "t", 2 << 20);
    now += RowSizes.WINDOW_NANOS;
    sizes.saw("k", "t", 100);
    assertThat(sizes.largest("k", "t")).isEqualTo(2 << 20);

    now += RowSizes.WINDOW_NANOS;
    sizes.saw("k", "t", 100);
    assertThat(sizes.largest("k", "t")).isEqualTo(100);
    assertThat(RowSizes.rows(100, 201)).isEqualTo(201);
  }

  @Test
  void a_table_not_seen_for_two_windows_is_unknown_again_not_tiny() {
    sizes.saw("k", "t", 100);
    now += 2 * RowSizes.WINDOW_NANOS;

    assertThat(sizes.largest("k", "t")).isEqualTo(RowSizes.UNKNOWN_ROW_BYTES);
  }

  @Test
  void past_the_bound_of_tables_the_sizes_are_forgotten_which_only_makes_fetches_smaller() {
    for (int t = 0; t < RowSizes.MAX_TABLES; t++) {
      sizes.saw("k", "t" + t, 100);
    }
    sizes.saw("k", "new", 100);

    assertThat(sizes.largest("k", "t0")).isEqualTo(RowSizes.UNKNOWN_ROW_BYTES);
    assertThat(sizes.largest("k", "new")).isEqualTo(100);
  }

  @Test
  void a_fetch_asks_for_at_least_one_row_and_at_most_what_the_read_wants() {
    assertThat(RowSizes.rows(64L << 20, 201)).isEqualTo(1);
    assertThat(RowSizes.rows(1, 201)).isEqualTo(201);
    assertThat(RowSizes.rows(0, 16)).isEqualTo(16);
  }
}
