package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class ScanSegmentTest {

  @Test
  void the_segments_of_a_total_tile_the_whole_ring_in_equal_shares() {
    for (int total : new int[] {1, 2, 3, 7, 4096}) {
      long expected = Long.MIN_VALUE;
      for (int i = 0; i < total; i++) {
        ScanSegment s = ScanSegment.of(true, i, true, total);
        assertThat(s.first()).as(i + "/" + total).isEqualTo(expected);
        assertThat(s.last()).isGreaterThanOrEqualTo(s.first());
        // equal shares: widths differ by at most one token
        double width = (double) s.last() - s.first() + 1;
        assertThat(width)
            .isCloseTo(
                Math.pow(2, 64) / total, org.assertj.core.data.Percentage.withPercentage(0.001));
        expected = s.last() + 1;
      }
      assertThat(ScanSegment.of(true, total - 1, true, total).last()).isEqualTo(Long.MAX_VALUE);
    }
  }

  @Test
  void absent_fields_mean_the_whole_ring() {
    ScanSegment all = ScanSegment.of(false, 0, false, 0);
    assertThat(all.first()).isEqualTo(Long.MIN_VALUE);
    assertThat(all.last()).isEqualTo(Long.MAX_VALUE);
    assertThat(all.total()).isEqualTo(1);
  }

  @Test
  void careless_segments_are_refused_naming_the_field() {
    assertThatThrownBy(() -> ScanSegment.of(false, 0, true, 0))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("total_segments"));
    assertThatThrownBy(() -> ScanSegment.of(false, 0, true, -1))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("total_segments"));
    assertThatThrownBy(() -> ScanSegment.of(false, 0, true, ScanSegment.MAX_TOTAL + 1))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("total_segments"));
    assertThatThrownBy(() -> ScanSegment.of(true, 7, true, 7))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("segment"));
    assertThatThrownBy(() -> ScanSegment.of(true, -1, true, 7))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("segment"));
  }

  @Test
  void a_scan_page_token_round_trips_and_a_truncated_one_is_refused() {
    ScanPageToken token =
        new ScanPageToken(-42, "récord", "key".getBytes(StandardCharsets.UTF_8), 17, 300);
    ScanPageToken back = ScanPageToken.decode(token.encode(), "page_token");
    assertThat(back.lastToken()).isEqualTo(-42);
    assertThat(back.lastId()).isEqualTo("récord");
    assertThat(back.lastKey()).isEqualTo("key".getBytes(StandardCharsets.UTF_8));
    assertThat(back.returnedSoFar()).isEqualTo(17);
    assertThat(back.averageItemBytes()).isEqualTo(300);
    byte[] encoded = token.encode();
    for (int cut : new int[] {0, 10, encoded.length - 1}) {
      byte[] truncated = java.util.Arrays.copyOf(encoded, cut);
      assertThatThrownBy(() -> ScanPageToken.decode(truncated, "page_token"))
          .isInstanceOfSatisfying(
              InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("page_token"));
    }
  }
}
