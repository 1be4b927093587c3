package io.varve.core.read;

import io.varve.core.event.Event;
import java.util.List;

/**
 * The events a partition read returned, newest first, and whether it stopped at its read's byte
 * limit ({@link ReadBytes}) with more events possibly after the last one: then it returned at least
 * one event, and none after the last one was looked at.
 */
public record PartitionRead(List<Event> events, boolean cut) {

  public PartitionRead {
    events = List.copyOf(events);
    if (cut && events.isEmpty()) {
      throw new IllegalArgumentException("a partition read cut at its byte limit returns an event");
    }
  }

  /** A read that went as far as it was asked. */
  public static PartitionRead whole(List<Event> events) {
    return new PartitionRead(events, false);
  }
}
