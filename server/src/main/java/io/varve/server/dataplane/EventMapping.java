package io.varve.server.dataplane;

import com.google.protobuf.UnsafeByteOperations;
import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Event;
import java.util.ArrayList;
import java.util.List;

/** Converts events between the API's messages and the core model. */
final class EventMapping {

  /** 9999-12-31T23:59:59Z. */
  private static final long MAX_SECONDS = 253_402_300_799L;

  private EventMapping() {}

  /** The core form of {@code events[index]} of a write request. */
  static Event toCore(io.varve.api.timeseries.v1.Event proto, int index) {
    Timestamp t = proto.hasEventTime() ? proto.getEventTime() : null;
    // the error path is built only for an invalid time: this runs for every event written
    long time = t != null && t.getNanos() % 1_000_000 == 0 && t.getSeconds() >= 0 && t.getSeconds() <= MAX_SECONDS
        ? t.getSeconds() * 1000 + t.getNanos() / 1_000_000 : millis(t, "events[" + index + "].eventTime");
    List<io.varve.core.event.EventItem> items = new ArrayList<>(proto.getEventItemsCount());
    for (EventItem item : proto.getEventItemsList()) {
      items.add(new io.varve.core.event.EventItem(item.getEventItemKey().toByteArray(),
          item.getEventItemValue().toByteArray()));
    }
    return new Event(proto.getTimeSeriesId(), time, proto.getEventId(), items);
  }

  static io.varve.api.timeseries.v1.Event toProto(Event event) {
    io.varve.api.timeseries.v1.Event.Builder builder = io.varve.api.timeseries.v1.Event.newBuilder()
        .setTimeSeriesId(event.timeSeriesId())
        .setEventTime(timestamp(event.eventTimeMillis()))
        .setEventId(event.eventId());
    for (io.varve.core.event.EventItem item : event.items()) {
      // the arrays were made for this event by the reader and are never changed: no copy needed
      builder.addEventItems(EventItem.newBuilder()
          .setEventItemKey(UnsafeByteOperations.unsafeWrap(item.key()))
          .setEventItemValue(UnsafeByteOperations.unsafeWrap(item.value())));
    }
    return builder.build();
  }

  /** Epoch milliseconds of a timestamp that must be present and of millisecond precision. */
  static long millis(Timestamp t, String field) {
    if (t == null) {
      throw InvalidFieldException.of(field, "missing (expected: an RFC 3339 time such as \"2024-10-03T21:24:23.988Z\")");
    }
    if (t.getNanos() % 1_000_000 != 0) {
      throw new InvalidFieldException(field, com.google.protobuf.util.Timestamps.toString(t),
          "a time with at most millisecond precision");
    }
    if (t.getSeconds() < 0 || t.getSeconds() > MAX_SECONDS) {
      throw new InvalidFieldException(field, InvalidFieldException.shown(t.getSeconds() + "s since the epoch"), "a time between 1970 and 9999");
    }
    return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
  }

  /** [from, to) in epoch milliseconds of a request's {@code timeInterval}, which must be present and non-empty. */
  static long[] interval(boolean present, io.varve.api.timeseries.v1.TimeInterval interval) {
    if (!present) {
      throw InvalidFieldException.of("timeInterval", "missing (expected: {\"start\": ..., \"end\": ...})");
    }
    long from = millis(interval.hasStart() ? interval.getStart() : null, "timeInterval.start");
    long to = millis(interval.hasEnd() ? interval.getEnd() : null, "timeInterval.end");
    if (to <= from) {
      throw new InvalidFieldException("timeInterval.end", com.google.protobuf.util.Timestamps.toString(interval.getEnd()),
          "after timeInterval.start (the interval is [start, end))");
    }
    return new long[] {from, to};
  }

  static Timestamp timestamp(long millis) {
    return Timestamp.newBuilder().setSeconds(Math.floorDiv(millis, 1000))
        .setNanos((int) Math.floorMod(millis, 1000) * 1_000_000).build();
  }
}
