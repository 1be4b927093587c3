package io.varve.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.namespace.Retention;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class IndexSlicesTest {

  static final IndexSpec SPEC =
      new IndexSpec(
          "ns",
          "base",
          3600,
          Map.of("n", FieldType.INTEGER, "k", FieldType.KEYWORD),
          Duration.ofSeconds(1),
          DocumentMode.REVERSE_INDEX,
          Duration.ofHours(36),
          new Retention(Optional.of(Duration.ofHours(1)), Optional.of(Duration.ofHours(2))));

  @Test
  void slices_are_start_inclusive_end_exclusive_and_aligned_to_the_epoch() {
    assertThat(IndexSlices.indexFor(SPEC, 7_200_000)).isEqualTo("base.ns.7200");
    assertThat(IndexSlices.indexFor(SPEC, 7_199_999)).isEqualTo("base.ns.3600");
    assertThat(IndexSlices.covering(SPEC, 3_600_000, 7_200_000)).containsExactly("base.ns.3600");
    assertThat(IndexSlices.covering(SPEC, 3_599_999, 7_200_001))
        .containsExactly("base.ns.0", "base.ns.3600", "base.ns.7200");
    assertThat(IndexSlices.covering(SPEC, 5, 5)).isEmpty();
    assertThat(IndexSlices.startOf(SPEC, "base.ns.7200")).hasValue(7200);
    assertThat(IndexSlices.startOf(SPEC, "base.ns2.7200")).isEmpty();
    assertThat(IndexSlices.startOf(SPEC, "base.ns.x")).isEmpty();
  }

  @Test
  void a_slice_ends_after_its_width_and_retention_counts_from_its_end() {
    Instant end = Instant.ofEpochSecond(7200);
    assertThat(
            IndexSlices.endedBefore(SPEC, 3600, end.plus(Duration.ofHours(1)), Duration.ofHours(1)))
        .isFalse();
    assertThat(
            IndexSlices.endedBefore(
                SPEC, 3600, end.plus(Duration.ofHours(1)).plusMillis(1), Duration.ofHours(1)))
        .isTrue();
  }

  @Test
  void documents_carry_parsable_mapped_items_and_a_stable_id() {
    Event event =
        new Event(
            "s",
            3_600_000,
            "e1",
            List.of(item("n", "12"), item("k", "v"), item("x", "y"), item("n", "13")));
    IndexedEvent indexed = IndexedEvent.of(SPEC, event);
    assertThat(indexed.document().fields()).isEqualTo(Map.of("n", 12, "k", "v"));
    assertThat(indexed.document().index()).isEqualTo("base.ns.3600");
    assertThat(indexed.document().items()).isEmpty();
    assertThat(indexed.unparsable()).isEmpty();
    assertThat(indexed.document().id())
        .isEqualTo(IndexedEvent.documentId("s", 3_600_000, "e1"))
        .isNotEqualTo(IndexedEvent.documentId("s", 3_600_001, "e1"))
        .isNotEqualTo(IndexedEvent.documentId("s1", 3_600_000, "e1"));

    IndexedEvent bad =
        IndexedEvent.of(
            SPEC, new Event("s", 0, "e2", List.of(item("n", "twelve"), item("k", "v"))));
    assertThat(bad.unparsable()).containsExactly("n");
    assertThat(bad.document().fields()).isEqualTo(Map.of("k", "v"));
  }

  static EventItem item(String key, String value) {
    return new EventItem(
        key.getBytes(StandardCharsets.UTF_8), value.getBytes(StandardCharsets.UTF_8));
  }
}
