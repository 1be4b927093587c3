package io.varve.cassandra.events;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChunksTest {

  @Test
  void runs_are_bounded_by_items_and_bytes_in_order() {
    List<Integer> sizes = List.of(10, 10, 10, 10, 10);
    assertThat(Chunks.of(sizes, Integer::longValue, 25, 10))
        .containsExactly(List.of(10, 10), List.of(10, 10), List.of(10));
    assertThat(Chunks.of(sizes, Integer::longValue, 1000, 3))
        .containsExactly(List.of(10, 10, 10), List.of(10, 10));
  }

  @Test
  void an_item_over_the_byte_bound_runs_alone_and_is_never_split() {
    assertThat(Chunks.of(List.of(5, 100, 5), Integer::longValue, 20, 10))
        .containsExactly(List.of(5), List.of(100), List.of(5));
    assertThat(Chunks.of(List.<Integer>of(), Integer::longValue, 20, 10)).isEmpty();
  }
}
