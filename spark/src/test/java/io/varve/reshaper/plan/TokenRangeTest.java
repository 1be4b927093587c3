package io.varve.reshaper.plan;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class TokenRangeTest {
  @Test
  void ranges_cover_the_whole_ring_without_gaps_or_overlaps() {
    for (int count : new int[] {1, 2, 3, 7, 256, 1000}) {
      List<TokenRange> ranges = TokenRange.split(count);
      assertThat(ranges).hasSize(count);
      assertThat(ranges.get(0).start()).isEqualTo(Long.MIN_VALUE);
      assertThat(ranges.get(count - 1).end()).isEqualTo(Long.MAX_VALUE);
      for (int i = 0; i < count; i++) {
        assertThat(ranges.get(i).index()).isEqualTo(i);
        assertThat(ranges.get(i).start()).isLessThan(ranges.get(i).end());
        if (i > 0) {
          assertThat(ranges.get(i).start()).isEqualTo(ranges.get(i - 1).end());
        }
      }
    }
  }

  @Test
  void the_same_count_always_gives_the_same_ranges() {
    assertThat(TokenRange.split(97)).isEqualTo(TokenRange.split(97));
  }

  @Test
  void a_share_of_the_ring_is_cut_into_contiguous_ranges_and_never_into_empty_ones() {
    List<TokenRange> ranges = TokenRange.split(-100, 1_000, 16);
    assertThat(ranges).hasSize(16);
    assertThat(ranges.get(0).start()).isEqualTo(-100);
    assertThat(ranges.get(15).end()).isEqualTo(1_000);
    for (int i = 1; i < ranges.size(); i++) {
      assertThat(ranges.get(i).start()).isEqualTo(ranges.get(i - 1).end());
    }

    List<TokenRange> narrow = TokenRange.split(10, 13, 16);
    assertThat(narrow).as("three tokens: three ranges of one").hasSize(3);
    assertThat(narrow).allMatch(r -> r.end() - r.start() == 1);
  }
}
