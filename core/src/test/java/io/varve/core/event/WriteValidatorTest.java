package io.varve.core.event;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class WriteValidatorTest {

  /**
   * Small limits so that each can be crossed by a byte: 3 events per batch, 2 items per event, keys
   * of 4 bytes, values of 8, 12 bytes of keys and values per event, series ids of 6 bytes, event
   * ids of 5.
   */
  private static final Limits LIMITS =
      new Limits(Limits.MIB, 3, 2, 4, 8, 12, 6, 5, 1000, 100, Limits.MIB, 16, Duration.ofHours(1));

  private static final WriteValidator VALIDATOR = new WriteValidator(LIMITS);

  private static EventItem item(String key, int valueBytes) {
    return new EventItem(key.getBytes(UTF_8), new byte[valueBytes]);
  }

  private static Event event(String series, String id, EventItem... items) {
    return new Event(series, 1_700_000_000_000L, id, List.of(items));
  }

  private static Event ok() {
    return event("s", "e", item("k", 1));
  }

  private static List<Event> batch(Event... events) {
    return new ArrayList<>(List.of(events));
  }

  static Stream<Arguments> accepted() {
    return Stream.of(
        Arguments.of("one event of one item", batch(ok())),
        Arguments.of("as many events as allowed", batch(ok(), ok(), ok())),
        Arguments.of("ids at their byte limits", batch(event("ssssss", "eeeee", item("k", 1)))),
        // 3 characters, 6 bytes / 2 characters, 4 bytes: limits count UTF-8 bytes
        Arguments.of(
            "multi-byte ids within the byte limits", batch(event("ééé", "a€", item("k", 1)))),
        Arguments.of("key and value at their limits", batch(event("s", "e", item("kkkk", 8)))),
        Arguments.of("empty value", batch(event("s", "e", item("k", 0)))),
        Arguments.of(
            "items at the per-event byte total",
            batch(event("s", "e", item("ab", 4), item("cd", 4)))),
        Arguments.of(
            "keys differing in one byte", batch(event("s", "e", item("ka", 1), item("kb", 1)))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepted")
  void accepts_batch_within_limits(String description, List<Event> events) {
    assertThatCode(() -> VALIDATOR.validate(events)).doesNotThrowAnyException();
  }

  static Stream<Arguments> refused() {
    Event nullSeries = new Event(null, 1L, "e", List.of(item("k", 1)));
    Event nullId = new Event("s", 1L, null, List.of(item("k", 1)));
    return Stream.of(
        Arguments.of("empty batch", batch(), "events", List.of("empty", "1..3")),
        Arguments.of(
            "too many events", batch(ok(), ok(), ok(), ok()), "events", List.of("4", "at most 3")),
        Arguments.of(
            "missing series id",
            batch(ok(), nullSeries),
            "events[1].timeSeriesId",
            List.of("missing")),
        Arguments.of(
            "empty series id",
            batch(event("", "e", item("k", 1))),
            "events[0].timeSeriesId",
            List.of("missing")),
        Arguments.of(
            "missing event id", batch(ok(), ok(), nullId), "events[2].eventId", List.of("missing")),
        Arguments.of(
            "empty event id",
            batch(event("s", "", item("k", 1))),
            "events[0].eventId",
            List.of("missing")),
        Arguments.of(
            "series id over the limit",
            batch(event("sssssss", "e", item("k", 1))),
            "events[0].timeSeriesId",
            List.of("sssssss", "got 7")),
        // 4 characters but 8 bytes of UTF-8
        Arguments.of(
            "series id over the limit in UTF-8 bytes",
            batch(ok(), event("éééé", "e", item("k", 1))),
            "events[1].timeSeriesId",
            List.of("éééé", "got 8")),
        // 2 characters (4 UTF-16 units) but 8 bytes of UTF-8
        Arguments.of(
            "event id over the limit in UTF-8 bytes",
            batch(event("s", "😀😀", item("k", 1))),
            "events[0].eventId",
            List.of("got 8")),
        Arguments.of(
            "event without items",
            batch(ok(), new Event("s", 1L, "e", List.of())),
            "events[1].eventItems",
            List.of("0")),
        Arguments.of(
            "too many items",
            batch(event("s", "e", item("a", 1), item("b", 1), item("c", 1))),
            "events[0].eventItems",
            List.of("3", "1..2")),
        Arguments.of(
            "empty key",
            batch(ok(), ok(), event("s", "e", item("k", 1), item("", 1))),
            "events[2].eventItems[1].eventItemKey",
            List.of("0 bytes", "1..4")),
        Arguments.of(
            "key over the limit",
            batch(event("s", "e", item("kkkkk", 1))),
            "events[0].eventItems[0].eventItemKey",
            List.of("5 bytes", "1..4")),
        Arguments.of(
            "value over the limit",
            batch(ok(), ok(), event("s", "e", item("a", 1), item("b", 9))),
            "events[2].eventItems[1].eventItemValue",
            List.of("9 bytes", "at most 8")),
        Arguments.of(
            "repeated key",
            batch(event("s", "e", item("k", 1), item("k", 2))),
            "events[0].eventItems[1].eventItemKey",
            List.of("repeats the key of eventItems[0]")),
        Arguments.of(
            "keys and values over the per-event total",
            batch(ok(), event("s", "e", item("ab", 5), item("cd", 4))),
            "events[1].eventItems",
            List.of("13 bytes", "at most 12")),
        Arguments.of(
            "first offending event is named",
            batch(ok(), event("", "e"), event("", "e")),
            "events[1].timeSeriesId",
            List.of("missing")));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("refused")
  void refuses_batch_naming_the_path_of_the_offending_field(
      String description, List<Event> events, String field, List<String> mentions) {
    assertThatThrownBy(() -> VALIDATOR.validate(events))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.kind()).isEqualTo(VarveException.Kind.INVALID_ARGUMENT);
              assertThat(e.getMessage()).startsWith(field + ": ");
              for (String mention : mentions) {
                assertThat(e.getMessage()).contains(mention);
              }
            });
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("accepted")
  void default_limits_accept_what_small_limits_accept(String description, List<Event> events) {
    assertThatCode(() -> new WriteValidator(Limits.DEFAULT).validate(events))
        .doesNotThrowAnyException();
  }

  @Test
  void default_limits_allow_a_thousand_events_per_batch_and_not_more() {
    List<Event> thousand = new ArrayList<>(Collections.nCopies(1000, ok()));
    WriteValidator validator = new WriteValidator(Limits.DEFAULT);

    assertThatCode(() -> validator.validate(thousand)).doesNotThrowAnyException();
    thousand.add(ok());
    assertThatThrownBy(() -> validator.validate(thousand))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("events"));
  }
}
