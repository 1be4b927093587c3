package io.varve.core.event;

import java.util.List;

/**
 * An immutable event of one time series. {@code (timeSeriesId, eventTimeMillis, eventId)} identifies
 * it; with an item's key it identifies a stored row.
 */
public record Event(String timeSeriesId, long eventTimeMillis, String eventId, List<EventItem> items) {

  /** Orders events newest first, ties by event id ascending: the order reads return. */
  public static int newestFirst(Event a, Event b) {
    int byTime = Long.compare(b.eventTimeMillis, a.eventTimeMillis);
    return byTime != 0 ? byTime : a.eventId.compareTo(b.eventId);
  }

  /** Approximate stored size in bytes: keys and values of all items. */
  public long payloadBytes() {
    long total = 0;
    for (EventItem item : items) {
      total += item.key().length + item.value().length;
    }
    return total;
  }
}
