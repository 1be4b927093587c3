package io.varve.core.read;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.event.Event;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CursorTest {

  private static Event event(long time, String id) {
    return new Event("s", time, id, List.of());
  }

  @ParameterizedTest(name = "cursor (1000, m), event ({0}, {1}) -> {2}")
  @CsvSource({
    "999, a, true", // older: next page
    "999, z, true",
    "1001, a, false", // newer: an earlier page had it
    "1000, n, true", // same millisecond, later id: comes after in newest-first order
    "1000, m, false", // the cursor's own event is not returned again
    "1000, l, false", // same millisecond, earlier id: already returned
    "1000, mm, true",
  })
  void precedes_events_that_come_after_it_in_newest_first_order(
      long time, String id, boolean expected) {
    assertThat(new Cursor(1000, "m").precedes(event(time, id))).isEqualTo(expected);
  }

  @Test
  void agrees_with_the_read_order() {
    List<Event> events =
        List.of(event(5, "b"), event(5, "a"), event(4, "z"), event(6, "a"), event(5, "ba"));
    for (Event last : events) {
      Cursor cursor = Cursor.after(last);
      for (Event e : events) {
        assertThat(cursor.precedes(e))
            .as("%s after %s", e, last)
            .isEqualTo(Event.newestFirst(last, e) < 0);
      }
    }
  }

  @Test
  void after_takes_time_and_id_of_the_event() {
    assertThat(Cursor.after(event(42, "evt-7"))).isEqualTo(new Cursor(42, "evt-7"));
  }
}
