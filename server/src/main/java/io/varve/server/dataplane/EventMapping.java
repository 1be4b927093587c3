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
    // the error path is built only for an invalid time: this runs for every event written
    long time = millis(proto.hasEventTime() ? proto.getEventTime() : null, () -> "events[" + index + "].eventTime");
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
    return millis(t, () -> field);
  }

  /** As {@link #millis(Timestamp, String)}, the field's name made only for an error. */
  static long millis(Timestamp t, java.util.function.Supplier<String> field) {
    if (t == null) {
      throw InvalidFieldException.of(field.get(), "missing (expected: an RFC 3339 time such as \"2024-10-03T21:24:23.988Z\")");
    }
    if (t.getNanos() % 1_000_000 != 0) {
      throw new InvalidFieldException(field.get(), com.google.protobuf.util.Timestamps.toString(t),
          "a time with at most millisecond precision");
    }
    if (t.getSeconds() < 0 || t.getSeconds() > MAX_SECONDS) {
      throw new InvalidFieldException(field.get(), InvalidFieldException.shown(t.getSeconds() + "s since the epoch"),
          "a time between 1970 and 9999");
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

  /** A request's page size ({@code field}): {@code defaultSize} when absent, else 1..{@code max}. */
  static int pageSize(String field, boolean present, int value, int defaultSize, int max) {
    int size = present ? value : defaultSize;
    if (size < 1 || size > max) {
      throw new InvalidFieldException(field, size, "1.." + max);
    }
    return size;
  }

  /** A request's totalRecordLimit: positive when present; 0 (no limit) when absent. */
  static int totalRecordLimit(boolean present, int value) {
    if (present && value < 1) {
      throw new InvalidFieldException("totalRecordLimit", value, "a positive number of events, or absent for no limit");
    }
    return present ? value : 0;
  }

  static Timestamp timestamp(long millis) {
    return Timestamp.newBuilder().setSeconds(Math.floorDiv(millis, 1000))
        .setNanos((int) Math.floorMod(millis, 1000) * 1_000_000).build();
  }
}
