package io.varve.core.event;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class EventOrderTest {

  private static int utf8Order(String a, String b) {
    return Arrays.compareUnsigned(
        a.getBytes(StandardCharsets.UTF_8), b.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void orders_event_ids_like_cassandra_orders_utf8_text() {
    // U+FF21 (fullwidth A) sorts before U+1F600 (emoji) in UTF-8, after it in UTF-16 units
    List<String> ids =
        List.of("a", "ab", "b", "\uFF21", "\uD83D\uDE00", "z\uD83D\uDE00", "z\uFF21", "");
    for (String a : ids) {
      for (String b : ids) {
        assertThat(Integer.signum(Event.compareIds(a, b)))
            .as(a + " vs " + b)
            .isEqualTo(Integer.signum(utf8Order(a, b)));
      }
    }
  }

  @Test
  void newest_first_then_by_event_id() {
    List<Event> events =
        new ArrayList<>(
            List.of(
                new Event("s", 1, "b", List.of()),
                new Event("s", 2, "z", List.of()),
                new Event("s", 1, "a", List.of())));
    events.sort(Event::newestFirst);
    assertThat(events).extracting(Event::eventId).containsExactly("z", "a", "b");
  }
}
