package io.varve.core.event;

import java.util.List;

/**
 * An immutable event of one time series. {@code (timeSeriesId, eventTimeMillis, eventId)}
 * identifies it; with an item's key it identifies a stored row.
 */
public record Event(
    String timeSeriesId, long eventTimeMillis, String eventId, List<EventItem> items) {

  /** Orders events newest first, ties by event id ascending: the order reads return. */
  public static int newestFirst(Event a, Event b) {
    int byTime = Long.compare(b.eventTimeMillis, a.eventTimeMillis);
    return byTime != 0 ? byTime : compareIds(a.eventId, b.eventId);
  }

  /**
   * Orders event ids as Cassandra orders {@code text} clustering values: by UTF-8 bytes, which is
   * code point order (String.compareTo, by UTF-16 units, differs beyond the Basic Multilingual
   * Plane).
   */
  public static int compareIds(String a, String b) {
    int i = 0;
    int j = 0;
    while (i < a.length() && j < b.length()) {
      int ca = a.codePointAt(i);
      int cb = b.codePointAt(j);
      if (ca != cb) {
        return Integer.compare(ca, cb);
      }
      i += Character.charCount(ca);
      j += Character.charCount(cb);
    }
    return Integer.compare(a.length() - i, b.length() - j);
  }

  /** Approximate stored size in bytes: keys and values of all items. */
  public long payloadBytes() {
    long total = 0;
    for (EventItem item : items) {
      total += item.key().length + item.value().length;
    }
    return total;
  }

  /**
   * What this event holds on the heap, an upper bound (compressed references, 8-byte alignment,
   * strings at two bytes a character): the record (32 bytes), its two strings, its list of items
   * (24 and the array of references) and each item (24) with its two arrays. What holds an event in
   * a queue adds its own objects.
   */
  public long heapBytes() {
    long bytes =
        32
            + stringHeapBytes(timeSeriesId)
            + stringHeapBytes(eventId)
            + 24
            + arrayHeapBytes(4L * items.size());
    for (EventItem item : items) {
      bytes += 24 + arrayHeapBytes(item.key().length) + arrayHeapBytes(item.value().length);
    }
    return bytes;
  }

  /**
   * The heap a string of its own holds, an upper bound: the object and its array, at two bytes a
   * character.
   */
  public static long stringHeapBytes(String s) {
    return 24 + arrayHeapBytes(2L * s.length());
  }

  /** The heap an array of {@code length} bytes holds with its header, aligned to 8 bytes. */
  public static long arrayHeapBytes(long length) {
    return (16 + length + 7) & ~7L;
  }
}
