package io.varve.core.event;

import static io.varve.core.error.InvalidFieldException.shown;

import io.varve.core.error.InvalidFieldException;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Checks the shape of a write batch against the {@link Limits}. A batch with any malformed event is
 * rejected whole, before anything is written, with the path of the first offending field.
 */
public final class WriteValidator {

  private final Limits limits;

  public WriteValidator(Limits limits) {
    this.limits = limits;
  }

  public void validate(List<Event> events) {
    if (events.isEmpty()) {
      throw InvalidFieldException.of(
          "events", "empty (expected: 1.." + limits.maxEventsPerBatch() + " events)");
    }
    if (events.size() > limits.maxEventsPerBatch()) {
      throw new InvalidFieldException(
          "events",
          shown(events.size() + " events"),
          "at most " + limits.maxEventsPerBatch() + " events per batch");
    }
    for (int i = 0; i < events.size(); i++) {
      validate(i, events.get(i));
    }
  }

  /** Error paths are built only when there is an error: this runs for every event written. */
  private void validate(int index, Event event) {
    checkId(index, ".timeSeriesId", event.timeSeriesId(), limits.maxTimeSeriesIdBytes());
    checkId(index, ".eventId", event.eventId(), limits.maxEventIdBytes());

    List<EventItem> items = event.items();
    if (items.isEmpty() || items.size() > limits.maxItemsPerEvent()) {
      throw new InvalidFieldException(
          "events[" + index + "].eventItems",
          shown(items.size() + " items"),
          "1.." + limits.maxItemsPerEvent() + " items");
    }
    long total = 0;
    for (int j = 0; j < items.size(); j++) {
      EventItem item = items.get(j);
      if (item.key().length == 0 || item.key().length > limits.maxItemKeyBytes()) {
        throw new InvalidFieldException(
            itemPath(index, j) + ".eventItemKey",
            shown(item.key().length + " bytes"),
            "1.." + limits.maxItemKeyBytes() + " bytes");
      }
      if (item.value().length > limits.maxItemValueBytes()) {
        throw new InvalidFieldException(
            itemPath(index, j) + ".eventItemValue",
            shown(item.value().length + " bytes"),
            "at most " + limits.maxItemValueBytes() + " bytes");
      }
      for (int k = 0; k < j; k++) {
        if (java.util.Arrays.equals(items.get(k).key(), item.key())) {
          throw InvalidFieldException.of(
              itemPath(index, j) + ".eventItemKey",
              "repeats the key of eventItems[" + k + "] (expected: distinct keys within an event)");
        }
      }
      total += item.key().length + item.value().length;
    }
    if (total > limits.maxEventBytes()) {
      throw new InvalidFieldException(
          "events[" + index + "].eventItems",
          shown(total + " bytes in all"),
          "at most " + limits.maxEventBytes() + " bytes of keys and values per event");
    }
  }

  private static String itemPath(int index, int item) {
    return "events[" + index + "].eventItems[" + item + "]";
  }

  private static void checkId(int index, String name, String value, int maxBytes) {
    if (value == null || value.isEmpty()) {
      throw InvalidFieldException.of(
          "events[" + index + "]" + name, "missing (expected: 1.." + maxBytes + " bytes of UTF-8)");
    }
    // at most 3 bytes of UTF-8 per char: only long ids need counting
    if (value.length() * 3L > maxBytes) {
      int bytes = value.getBytes(StandardCharsets.UTF_8).length;
      if (bytes > maxBytes) {
        throw new InvalidFieldException(
            "events[" + index + "]" + name,
            value,
            "1.." + maxBytes + " bytes of UTF-8, got " + bytes);
      }
    }
  }
}
