package io.varve.perf.ts;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Generates benchmark events: {@code series} time series, times spread over a window ending a
 * minute ago, two items each (an 8-byte device type and a 100-byte payload).
 */
final class EventGenerator {

  private static final ByteString DEVICE = ByteString.copyFromUtf8("deviceType");
  private static final ByteString PAYLOAD = ByteString.copyFromUtf8("payload");

  private final SplittableRandom random = new SplittableRandom(42);
  private final int series;
  private final long windowMillis;
  private final long endMillis;

  EventGenerator(int series, long windowMillis, Instant end) {
    this.series = series;
    this.windowMillis = windowMillis;
    this.endMillis = end.toEpochMilli();
  }

  List<List<Event>> batches(String prefix, int events, int batchSize) {
    List<List<Event>> batches = new ArrayList<>();
    List<Event> batch = new ArrayList<>(batchSize);
    for (int i = 0; i < events; i++) {
      batch.add(
          event(
              "series-" + random.nextInt(series),
              endMillis - random.nextLong(windowMillis),
              prefix + i));
      if (batch.size() == batchSize) {
        batches.add(batch);
        batch = new ArrayList<>(batchSize);
      }
    }
    if (!batch.isEmpty()) {
      batches.add(batch);
    }
    return batches;
  }

  Event event(String seriesId, long timeMillis, String id) {
    byte[] payload = new byte[100];
    random.nextBytes(payload);
    return Event.newBuilder()
        .setTimeSeriesId(seriesId)
        .setEventTime(
            Timestamp.newBuilder()
                .setSeconds(timeMillis / 1000)
                .setNanos((int) (timeMillis % 1000) * 1_000_000))
        .setEventId(id)
        .addEventItems(
            EventItem.newBuilder()
                .setEventItemKey(DEVICE)
                .setEventItemValue(
                    ByteString.copyFrom(
                        random.nextBoolean() ? "ios" : "android", StandardCharsets.UTF_8)))
        .addEventItems(
            EventItem.newBuilder()
                .setEventItemKey(PAYLOAD)
                .setEventItemValue(ByteString.copyFrom(payload)))
        .build();
  }
}
