package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FetchSizesTest {

  @Test
  void the_default_fetch_bound_reads_a_small_record_in_one_fetch_and_holds_at_most_128_mib() {
    KvLimits limits = KvLimits.DEFAULT;
    assertThat(limits.valueRowsPerFetch()).isEqualTo(127);
    // 100 items and the one more row that tells the page is the last
    assertThat(limits.valueRowsPerFetch()).isGreaterThanOrEqualTo(101);
    assertThat(limits.valueRowsPerFetch() * limits.maxRowBytes())
        .isLessThanOrEqualTo(limits.maxFetchBytes());
    assertThat(
            limits.keyRowsPerFetch() * (long) (limits.maxKeyBytes() + KvLimits.MAX_METADATA_BYTES))
        .isLessThanOrEqualTo(limits.maxFetchBytes());
  }

  @Test
  void a_small_bound_still_fetches_two_rows() {
    KvLimits limits = KvLimits.DEFAULT.withFetchBytes(4 * KvLimits.MIB);
    assertThat(limits.valueRowsPerFetch()).isEqualTo(3);
    assertThat(KvLimits.DEFAULT.withFetchBytes(1).valueRowsPerFetch()).isEqualTo(FetchSizes.MIN);
  }

  @Test
  void rows_fill_the_page_from_the_estimate_within_the_item_limit_and_the_clamp() {
    assertThat(FetchSizes.of(2 * KvLimits.MIB, 1024, Long.MAX_VALUE)).isEqualTo(2049);
    assertThat(FetchSizes.of(2 * KvLimits.MIB, 1, Long.MAX_VALUE)).isEqualTo(FetchSizes.MAX);
    assertThat(FetchSizes.of(2 * KvLimits.MIB, KvLimits.MIB, Long.MAX_VALUE)).isEqualTo(3);
    assertThat(FetchSizes.of(16 * KvLimits.MIB, 64 * KvLimits.MIB, Long.MAX_VALUE))
        .isEqualTo(FetchSizes.MIN);
    assertThat(FetchSizes.of(2 * KvLimits.MIB, 1024, 10)).isEqualTo(11);
    assertThat(FetchSizes.of(2 * KvLimits.MIB, 0, Long.MAX_VALUE)).isEqualTo(FetchSizes.MAX);
  }

  @Test
  void the_namespace_estimate_moves_towards_what_pages_saw() {
    FetchSizes sizes = new FetchSizes();
    assertThat(sizes.estimate("ns")).isEqualTo(FetchSizes.INITIAL_ITEM_BYTES);
    sizes.observe("ns", 10, 100);
    assertThat(sizes.estimate("ns")).isEqualTo(10);
    sizes.observe("ns", 1, 1010);
    assertThat(sizes.estimate("ns")).isEqualTo(210);
    sizes.observe("ns", 0, 0);
    assertThat(sizes.estimate("ns")).isEqualTo(210);
    assertThat(sizes.estimate("other")).isEqualTo(FetchSizes.INITIAL_ITEM_BYTES);
  }
}
