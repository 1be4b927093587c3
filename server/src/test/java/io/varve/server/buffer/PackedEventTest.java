package io.varve.server.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.sessions.JqwikSession;
import org.junit.jupiter.api.Test;

/**
 * A queued event is held packed and written unpacked: what is written must be exactly what was
 * queued, whatever its ids (any well-formed Unicode, beyond the Basic Multilingual Plane too) and
 * items (none, empty, many, large).
 */
class PackedEventTest {

  @Test
  void every_event_comes_back_from_its_packed_form_exactly() {
    JqwikSession.start();
    try {
      events()
          .sampleStream()
          .limit(3_000)
          .forEach(
              event -> {
                byte[] packed = PackedEvent.pack(event);
                assertThat(PackedEvent.unpack(packed)).as(event.toString()).isEqualTo(event);
              });
    } finally {
      JqwikSession.finish();
    }
  }

  @Test
  void the_packed_form_is_one_array_of_the_events_bytes_and_their_lengths() {
    Event event =
        new Event(
            "séries-𝄞",
            1_700_000_000_123L,
            "id",
            List.of(
                new EventItem(new byte[] {1}, new byte[100]),
                new EventItem(new byte[0], new byte[0])));
    int series = "séries-𝄞".getBytes(StandardCharsets.UTF_8).length;
    assertThat(PackedEvent.pack(event))
        .hasSize(4 + series + 4 + 2 + 8 + 4 + (4 + 1 + 4 + 100) + (4 + 4));
  }

  private static Arbitrary<Event> events() {
    return Combinators.combine(
            text(),
            Arbitraries.longs().between(0, 4_102_444_800_000L),
            text(),
            items().list().ofMaxSize(20))
        .as(Event::new);
  }

  private static Arbitrary<EventItem> items() {
    Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
    return Combinators.combine(bytes, bytes).as(EventItem::new);
  }

  /** Well-formed Unicode: code points of every plane, never a lone surrogate. */
  private static Arbitrary<String> text() {
    return Arbitraries.integers()
        .between(1, Character.MAX_CODE_POINT)
        .filter(c -> c < Character.MIN_SURROGATE || c > Character.MAX_SURROGATE)
        .list()
        .ofMaxSize(40)
        .map(
            points -> {
              StringBuilder text = new StringBuilder();
              points.forEach(text::appendCodePoint);
              return text.toString();
            });
  }
}
