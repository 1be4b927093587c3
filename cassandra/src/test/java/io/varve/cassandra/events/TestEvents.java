package io.varve.cassandra.events;

import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.BucketScan;
import io.varve.core.read.PartitionScan;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Events of the tests and their places in a slice, as the write planner would place them. */
final class TestEvents {

  private TestEvents() {}

  static byte[] utf8(String text) {
    return text.getBytes(StandardCharsets.UTF_8);
  }

  /** An event whose items are the given key, value pairs. */
  static Event event(String series, long timeMillis, String id, String... keyValues) {
    List<EventItem> items = new ArrayList<>();
    for (int i = 0; i < keyValues.length; i += 2) {
      items.add(new EventItem(utf8(keyValues[i]), utf8(keyValues[i + 1])));
    }
    return new Event(series, timeMillis, id, items);
  }

  /** The events in their partitions of {@code slice}, each with its position in {@code events}. */
  static Map<PartitionKey, List<PlacedEvent>> place(TimeSlice slice, List<Event> events) {
    Map<PartitionKey, List<PlacedEvent>> partitions = new LinkedHashMap<>();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      PartitionKey key =
          new PartitionKey(
              slice.table(),
              e.timeSeriesId(),
              slice.timeBucketOf(e.eventTimeMillis()),
              EventBuckets.of(
                  e.timeSeriesId(), e.eventTimeMillis(), e.eventId(), slice.eventBuckets()));
      partitions.computeIfAbsent(key, k -> new ArrayList<>()).add(new PlacedEvent(i, e, key));
    }
    return partitions;
  }

  /**
   * The scan of one partition: event bucket {@code eventBucket} of the time bucket holding {@code
   * timeMillis}.
   */
  static PartitionScan partition(TimeSlice slice, long timeMillis, int eventBucket) {
    long bucket = slice.timeBucketOf(timeMillis);
    return new PartitionScan(
        new BucketScan(
            slice.table(), bucket, slice.eventBuckets(), bucket, bucket + slice.bucketMillis()),
        eventBucket);
  }
}
