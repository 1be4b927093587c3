package io.varve.core.read;

import io.varve.core.event.Event;

/** The last event a page returned; the next page starts strictly after it in read order. */
public record Cursor(long eventTimeMillis, String eventId) {

  public static Cursor after(Event event) {
    return new Cursor(event.eventTimeMillis(), event.eventId());
  }

  /**
   * A cursor after which come exactly the events older than {@code millis}: every event id is
   * longer than the empty one, so all events of the millisecond before follow it.
   */
  public static Cursor olderThan(long millis) {
    return new Cursor(millis - 1, "");
  }

  /** True when {@code event} comes after this cursor in newest-first order. */
  public boolean precedes(Event event) {
    return event.eventTimeMillis() < eventTimeMillis
        || (event.eventTimeMillis() == eventTimeMillis
            && Event.compareIds(event.eventId(), eventId) > 0);
  }
}
