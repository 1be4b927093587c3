package io.varve.core.partitioning;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class SliceHistogramTest {

  private static final Instant AT = Instant.parse("2026-11-29T10:00:00Z");

  @Test
  void quantiles_and_log2_buckets_come_from_the_counted_partitions() {
    // 99 partitions of 1..99 rows and one of 10,000
    long[] counts =
        LongStream.concat(LongStream.rangeClosed(1, 99), LongStream.of(10_000)).toArray();
    SliceHistogram h = SliceHistogram.of(AT, 1.0, counts, 100, "dense");
    assertThat(h.partitions()).isEqualTo(100);
    assertThat(h.rows()).isEqualTo(99 * 100 / 2 + 10_000);
    assertThat(h.p50Rows()).isEqualTo(50);
    assertThat(h.p99Rows()).isEqualTo(99);
    assertThat(h.maxRows()).isEqualTo(10_000);
    assertThat(h.maxBytes()).isEqualTo(1_000_000);
    // [1,2) 1, [2,4) 2, [4,8) 4, [8,16) 8, [16,32) 16, [32,64) 32, [64,128) 36, ... [8192,16384) 1
    long[] log2 = h.rowsLog2();
    assertThat(log2).hasSize(14);
    assertThat(log2[0]).isEqualTo(1);
    assertThat(log2[5]).isEqualTo(32);
    assertThat(log2[6]).isEqualTo(36);
    assertThat(log2[13]).isEqualTo(1);
    assertThat(LongStream.of(log2).sum()).isEqualTo(100);
  }

  @Test
  void the_stored_form_reads_back_equal_with_any_series_id() {
    String id = "séries with spaces=and equals " + "x".repeat(400);
    SliceHistogram h = SliceHistogram.of(AT, 0.25, new long[] {3, 1, 4, 1, 5}, 42, id);
    assertThat(h.densestSeries()).hasSize(SliceHistogram.MAX_SERIES_CHARS);
    SliceHistogram back = SliceHistogram.parse(h.format()).orElseThrow();
    assertThat(back).isEqualTo(h);
    assertThat(back.densestSeries()).isEqualTo(h.densestSeries());
    assertThat(back.sampledFraction()).isEqualTo(0.25);
  }

  @Test
  void an_empty_slice_has_an_empty_histogram() {
    SliceHistogram h = SliceHistogram.of(AT, 1.0, new long[0], 0, "");
    assertThat(h.partitions()).isZero();
    assertThat(h.p99Rows()).isZero();
    assertThat(SliceHistogram.parse(h.format())).contains(h);
  }

  @Test
  void text_of_another_version_or_damaged_is_no_histogram() {
    assertThat(SliceHistogram.parse("v=2 whatever")).isEmpty();
    assertThat(SliceHistogram.parse("v=1 at=yesterday")).isEmpty();
    assertThat(SliceHistogram.parse("")).isEmpty();
  }
}
