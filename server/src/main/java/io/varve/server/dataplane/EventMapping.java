package io.varve.server.dataplane;

import com.google.protobuf.Timestamp;
import com.google.protobuf.UnsafeByteOperations;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Event;
import io.varve.server.request.RequestTimes;
import java.util.ArrayList;
import java.util.List;

/** Converts events between the API's messages and the core model. */
final class EventMapping {

  private EventMapping() {}

  /** The core form of {@code events[index]} of a write request. */
  static Event toCore(io.varve.api.timeseries.v1.Event proto, int index) {
    // the error path is built only for an invalid time: this runs for every event written
    long time =
        RequestTimes.millis(
            proto.hasEventTime() ? proto.getEventTime() : null,
            () -> "events[" + index + "].eventTime");
    List<io.varve.core.event.EventItem> items = new ArrayList<>(proto.getEventItemsCount());
    for (EventItem item : proto.getEventItemsList()) {
      items.add(
          new io.varve.core.event.EventItem(
              item.getEventItemKey().toByteArray(), item.getEventItemValue().toByteArray()));
    }
    return new Event(proto.getTimeSeriesId(), time, proto.getEventId(), items);
  }

  static io.varve.api.timeseries.v1.Event toProto(Event event) {
    io.varve.api.timeseries.v1.Event.Builder builder =
        io.varve.api.timeseries.v1.Event.newBuilder()
            .setTimeSeriesId(event.timeSeriesId())
            .setEventTime(timestamp(event.eventTimeMillis()))
            .setEventId(event.eventId());
    for (io.varve.core.event.EventItem item : event.items()) {
      // the arrays were made for this event by the reader and are never changed: no copy needed
      builder.addEventItems(
          EventItem.newBuilder()
              .setEventItemKey(UnsafeByteOperations.unsafeWrap(item.key()))
              .setEventItemValue(UnsafeByteOperations.unsafeWrap(item.value())));
    }
    return builder.build();
  }

  /**
   * A request's page size ({@code field}): {@code defaultSize} when absent, else 1..{@code max}.
   */
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
      throw new InvalidFieldException(
          "totalRecordLimit", value, "a positive number of events, or absent for no limit");
    }
    return present ? value : 0;
  }

  static Timestamp timestamp(long millis) {
    return Timestamp.newBuilder()
        .setSeconds(Math.floorDiv(millis, 1000))
        .setNanos((int) Math.floorMod(millis, 1000) * 1_000_000)
        .build();
  }
}
