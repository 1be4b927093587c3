package io.varve.reshaper.copy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RangeScanTest {

  @Test
  void small_rows_keep_the_configured_fetch_size() {
    // 5000 rows of 40 bytes: 200 kB, far under the page budget
    assertThat(RangeScan.nextPageRows(200_000, 5000, 5000, 5000)).isEqualTo(5000);
  }

  @Test
  void large_rows_shrink_the_next_page_to_about_four_mebibytes() {
    // 100 rows of 100 KiB: the next page asks for 40 rows (4 MiB)
    assertThat(RangeScan.nextPageRows(100 * 102_400, 100, 5000, 100)).isEqualTo(40);
    // very large rows still read at least 10 per page
    assertThat(RangeScan.nextPageRows(10 * (8 << 20), 10, 5000, 10)).isEqualTo(10);
  }

  @Test
  void a_page_grows_back_when_rows_get_smaller_but_never_past_fetch_size() {
    assertThat(RangeScan.nextPageRows(40 * 1_000, 40, 5000, 40)).isEqualTo(4194);
    assertThat(RangeScan.nextPageRows(40 * 100, 40, 1000, 40)).isEqualTo(1000);
  }

  @Test
  void an_unknown_page_size_keeps_the_current_page_rows() {
    assertThat(RangeScan.nextPageRows(-1, 100, 5000, 700)).isEqualTo(700);
    assertThat(RangeScan.nextPageRows(5000, 0, 5000, 700)).isEqualTo(700);
  }
}
