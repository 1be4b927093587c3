package io.varve.cassandra.events;

import static io.varve.cassandra.events.TestEvents.event;
import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** A partition's events go out in batches of at most 1 MiB of payload, in order, never split. */
class EventChunksTest {

  static final PartitionKey KEY = new PartitionKey("t", "series", 0, 0);

  /** Events of {@code valueBytes} bytes each (one item: a 1-byte key and the value). */
  static List<PlacedEvent> events(int... valueBytes) {
    return IntStream.range(0, valueBytes.length)
        .mapToObj(
            i ->
                new PlacedEvent(
                    i, event("series", i, "e" + i, "k", "v".repeat(valueBytes[i])), KEY))
        .toList();
  }

  static List<List<Integer>> indexes(List<List<PlacedEvent>> chunks) {
    return chunks.stream().map(c -> c.stream().map(PlacedEvent::index).toList()).toList();
  }

  @Test
  void a_partition_is_cut_at_one_mebibyte_in_order() {
    int third = CqlEventStore.MAX_BATCH_BYTES / 3;
    List<List<PlacedEvent>> chunks = CqlEventStore.chunks(events(third, third, third, third, 10));

    assertThat(indexes(chunks)).containsExactly(List.of(0, 1), List.of(2, 3, 4));
    assertThat(chunks)
        .allSatisfy(
            c ->
                assertThat(c.stream().mapToLong(e -> e.event().payloadBytes()).sum())
                    .isLessThanOrEqualTo(CqlEventStore.MAX_BATCH_BYTES));
  }

  @Test
  void an_event_over_one_mebibyte_goes_alone_and_whole() {
    assertThat(indexes(CqlEventStore.chunks(events(10, CqlEventStore.MAX_BATCH_BYTES + 1, 10))))
        .containsExactly(List.of(0), List.of(1), List.of(2));
    assertThat(CqlEventStore.chunks(List.of())).isEmpty();
  }

  @Test
  void small_events_share_one_batch_however_many_they_are() {
    assertThat(indexes(CqlEventStore.chunks(events(new int[5000])))).hasSize(1);
  }
}
