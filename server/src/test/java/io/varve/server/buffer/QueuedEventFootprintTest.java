package io.varve.server.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.IntUnaryOperator;
import org.junit.jupiter.api.Test;
import org.openjdk.jol.info.GraphLayout;

/**
 * The buffer's bounds ({@code queueBuffering.bufferCapacity}, {@code
 * server.admission.bufferedWriteBytes}) count what {@link WriteBuffers.Request} and the queue
 * charge: {@link WriteBuffers#bytesOf} per queued event and per partition, an estimate: the heap a
 * queue of events really holds (every object reachable from it, walked by JOL) must not exceed it,
 * or a full buffer holds more heap than configured; nor be far below it, or the buffer refuses long
 * before it is full. Events are built as the server builds them from requests: strings and byte
 * arrays of their own per event, a partition key per event sharing the table name.
 */
class QueuedEventFootprintTest {

  static {
    // JOL reads records' field offsets this way on JDK 16 and later without an agent
    System.setProperty("jol.magicFieldOffset", "true");
  }

  private static final int EVENTS = 20_000;
  private static final int PER_REQUEST = 100;
  private static final String TABLE = "events_20261127000000";

  @Test
  void events_as_the_benchmarks_send_them_two_small_items() {
    assertEstimateHolds(
        i ->
            event(
                "series-" + (i % 1000),
                "burst-" + i,
                List.of(item("deviceType", 8), item("payload", 100))));
  }

  @Test
  void events_of_one_empty_item() {
    assertEstimateHolds(i -> event("s" + (i % 50), Integer.toString(i), List.of(item("k", 0))));
  }

  @Test
  void events_of_twenty_one_byte_items() {
    assertEstimateHolds(
        i -> {
          List<EventItem> items = new ArrayList<>();
          for (int k = 0; k < 20; k++) {
            items.add(item("k" + k, 1));
          }
          return event("series-" + (i % 1000), "id-" + i, items);
        });
  }

  @Test
  void events_of_long_non_latin_ids_and_a_large_value() {
    assertEstimateHolds(
        i ->
            event(
                "séries-€-" + "x".repeat(100) + (i % 1000),
                "événement-€-" + "y".repeat(100) + i,
                List.of(item("payload", 4096))));
  }

  @Test
  void events_each_of_its_own_partition() {
    assertEstimateHolds(i -> event("series-" + i, "id-" + i, List.of(item("k", 16))), i -> i % 4);
  }

  private static void assertEstimateHolds(IntFunction<Event> events) {
    assertEstimateHolds(events, i -> i % 4);
  }

  private static void assertEstimateHolds(IntFunction<Event> events, IntUnaryOperator bucket) {
    NamespaceQueue queue = new NamespaceQueue(WriteBuffers::bytesOf);
    long empty = GraphLayout.parseInstance(queue).totalSize();
    long estimated = 0;
    for (int first = 0; first < EVENTS; first += PER_REQUEST) {
      List<PlacedEvent> request = new ArrayList<>();
      for (int i = first; i < first + PER_REQUEST; i++) {
        Event e = events.apply(i);
        request.add(
            new PlacedEvent(
                i - first, e, new PartitionKey(TABLE, e.timeSeriesId(), 0, bucket.applyAsInt(i))));
      }
      WriteBuffers.Request queued = WriteBuffers.Request.of(request, System.nanoTime());
      long charged = queue.offer(queued.events(), Long.MAX_VALUE);
      assertThat(charged).isPositive().isLessThanOrEqualTo(queued.maxBytes());
      estimated += charged;
    }
    assertThat(queue.bytes()).isEqualTo(estimated);
    long held = GraphLayout.parseInstance(queue).totalSize() - empty;
    assertThat(estimated)
        .as("estimated %d bytes for %d queued events that hold %d", estimated, EVENTS, held)
        .isGreaterThanOrEqualTo(held)
        .isLessThanOrEqualTo(held + held / 2);
  }

  private static Event event(String series, String id, List<EventItem> items) {
    // strings of their own, as each request's decoding makes them
    return new Event(
        new String(series.toCharArray()), 1_700_000_000_000L, new String(id.toCharArray()), items);
  }

  private static EventItem item(String key, int valueBytes) {
    return new EventItem(key.getBytes(StandardCharsets.UTF_8), new byte[valueBytes]);
  }
}
