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
 * minute ago, two items each (an 8-byte device type and a 100-byte payload). Not thread-safe: one
 * generator per thread.
 */
public final class EventGenerator {

  private static final ByteString DEVICE = ByteString.copyFromUtf8("deviceType");
  private static final ByteString PAYLOAD = ByteString.copyFromUtf8("payload");

  private final SplittableRandom random = new SplittableRandom(42);
  private final int series;
  private final long windowMillis;
  private final long endMillis;

  /** Events of {@code series} series, times in the {@code windowMillis} before {@code end}. */
  public EventGenerator(int series, long windowMillis, Instant end) {
    this.series = series;
    this.windowMillis = windowMillis;
    this.endMillis = end.toEpochMilli();
  }

  /** {@code events} events in batches of {@code batchSize}, ids {@code <prefix><n>}. */
  public List<List<Event>> batches(String prefix, int events, int batchSize) {
    List<List<Event>> batches = new ArrayList<>();
    for (int first = 0; first < events; first += batchSize) {
      batches.add(batch(prefix, first, Math.min(batchSize, events - first)));
    }
    return batches;
  }

  /** {@code size} events of random series and times, ids {@code <prefix><first>} and on. */
  public List<Event> batch(String prefix, long first, int size) {
    List<Event> batch = new ArrayList<>(size);
    for (long i = first; i < first + size; i++) {
      batch.add(
          event(
              "series-" + random.nextInt(series),
              endMillis - random.nextLong(windowMillis),
              prefix + i));
    }
    return batch;
  }

  /** One event of this series, time and id. */
  public Event event(String seriesId, long timeMillis, String id) {
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
