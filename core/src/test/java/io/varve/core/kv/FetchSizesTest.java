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

  @Test
  void
      varied_sizes_shrink_the_first_fetch_to_what_largest_items_would_fill_and_alike_ones_do_not() {
    int wanted = FetchSizes.of(2 * KvLimits.MIB, 60_000, Long.MAX_VALUE);
    assertThat(wanted).isEqualTo(35);
    // items of 100 B to 1 MiB averaging 60 KB: two of the largest fill the page
    assertThat(FetchSizes.firstFetch(2 * KvLimits.MIB, 60_000, KvLimits.MIB, wanted)).isEqualTo(3);
    // alike sizes (largest under 4 times the average): the whole estimate at once
    assertThat(FetchSizes.firstFetch(2 * KvLimits.MIB, 60_000, 200_000, wanted)).isEqualTo(wanted);
    // nothing known of the largest item
    assertThat(FetchSizes.firstFetch(2 * KvLimits.MIB, 60_000, 0, wanted)).isEqualTo(wanted);
    // never more than the estimate, never fewer than two rows
    assertThat(FetchSizes.firstFetch(2 * KvLimits.MIB, 10, 100, 5)).isEqualTo(5);
    assertThat(FetchSizes.firstFetch(KvLimits.MIB, 1000, 64 * KvLimits.MIB, 1049))
        .isEqualTo(FetchSizes.MIN);
  }

  @Test
  void the_largest_item_estimate_is_unknown_until_observed_then_follows_pages() {
    FetchSizes sizes = new FetchSizes();
    assertThat(sizes.largestEstimate("ns")).isZero();
    sizes.observe("ns", 10, 100);
    assertThat(sizes.largestEstimate("ns")).isZero();
    sizes.observe("ns", 10, 1000, 500);
    assertThat(sizes.largestEstimate("ns")).isEqualTo(500);
    sizes.observe("ns", 10, 1000, 1000);
    assertThat(sizes.largestEstimate("ns")).isEqualTo(600);
  }

  @Test
  void a_page_token_keeps_the_largest_item_and_decodes_tokens_written_without_it() {
    byte[] key = {1, 2, 3};
    KvPageToken back =
        KvPageToken.decode(new KvPageToken(key, 7, 300, 4096).encode(), "page_token");
    assertThat(back.lastKey()).isEqualTo(key);
    assertThat(back.returnedSoFar()).isEqualTo(7);
    assertThat(back.averageItemBytes()).isEqualTo(300);
    assertThat(back.largestItemBytes()).isEqualTo(4096);
    byte[] older =
        java.nio.ByteBuffer.allocate(8 + 8 + 4 + 3)
            .putLong(7)
            .putLong(300)
            .putInt(3)
            .put(key)
            .array();
    assertThat(KvPageToken.decode(older, "page_token").largestItemBytes()).isZero();
    byte[] torn = java.util.Arrays.copyOf(older, older.length + 3);
    org.assertj.core.api.Assertions.assertThatThrownBy(() -> KvPageToken.decode(torn, "page_token"))
        .isInstanceOf(io.varve.core.error.InvalidFieldException.class);
  }
}
