package io.varve.perf.search;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * The events of {@code varve perf search}: {@code n} events of {@code series} time series, times
 * uniform in [from, to), each with four items: {@code deviceType} (one of {@link #DEVICE_TYPES}),
 * {@code country} (one of {@link #COUNTRIES}), {@code duration} (an integer 0..3599 in decimal) and
 * a 100-byte {@code payload} that is not indexed. Keeps what each event holds, so the benchmark can
 * tell how many events a query must match.
 */
final class SearchEvents {

  static final String DEVICE_TYPE = "deviceType";
  static final String COUNTRY = "country";
  static final String DURATION = "duration";
  static final String PAYLOAD = "payload";
  static final String PROBE = "probe";
  static final int MAX_DURATION = 3600;

  static final List<String> DEVICE_TYPES = List.of("ios", "android", "web", "tv", "console");
  static final List<String> COUNTRIES =
      List.of(
          "AR", "AT", "AU", "BE", "BR", "CA", "CH", "CL", "CN", "CO", "CZ", "DE", "DK", "EG", "ES",
          "FI", "FR", "GB", "GR", "HU", "ID", "IE", "IL", "IN", "IT", "JP", "KR", "MA", "MX", "MY",
          "NG", "NL", "NO", "NZ", "PE", "PH", "PK", "PL", "PT", "RO", "SA", "SE", "SG", "TH", "TR",
          "UA", "US", "VN", "ZA", "KE");

  private static final ByteString DEVICE_KEY = ByteString.copyFromUtf8(DEVICE_TYPE);
  private static final ByteString COUNTRY_KEY = ByteString.copyFromUtf8(COUNTRY);
  private static final ByteString DURATION_KEY = ByteString.copyFromUtf8(DURATION);
  private static final ByteString PAYLOAD_KEY = ByteString.copyFromUtf8(PAYLOAD);
  private static final ByteString PROBE_KEY = ByteString.copyFromUtf8(PROBE);
  private static final List<ByteString> DEVICE_VALUES =
      DEVICE_TYPES.stream().map(ByteString::copyFromUtf8).toList();
  private static final List<ByteString> COUNTRY_VALUES =
      COUNTRIES.stream().map(ByteString::copyFromUtf8).toList();

  private final SplittableRandom random;
  private final int series;
  private final long[] times;
  private final byte[] devices;
  private final byte[] countries;
  private final short[] durations;

  SearchEvents(int n, int series, long fromMillis, long toMillis, long seed) {
    this.random = new SplittableRandom(seed);
    this.series = series;
    this.times = new long[n];
    this.devices = new byte[n];
    this.countries = new byte[n];
    this.durations = new short[n];
    for (int i = 0; i < n; i++) {
      times[i] = fromMillis + random.nextLong(toMillis - fromMillis);
      devices[i] = (byte) random.nextInt(DEVICE_TYPES.size());
      countries[i] = (byte) random.nextInt(COUNTRIES.size());
      durations[i] = (short) random.nextInt(MAX_DURATION);
    }
  }

  int size() {
    return times.length;
  }

  /** The events in write requests of {@code batchSize} events. */
  List<List<Event>> batches(int batchSize) {
    List<List<Event>> batches = new ArrayList<>();
    for (int start = 0; start < times.length; start += batchSize) {
      List<Event> batch = new ArrayList<>(batchSize);
      for (int i = start; i < Math.min(times.length, start + batchSize); i++) {
        batch.add(event(i));
      }
      batches.add(batch);
    }
    return batches;
  }

  private Event event(int i) {
    return event(
        "device-" + (i % series), times[i], "e" + i, devices[i], countries[i], durations[i], null);
  }

  /**
   * An event outside the data set (the index-lag phase's), at this time, with a {@code probe} item
   * when given.
   */
  synchronized Event extra(String id, long timeMillis, String probe) {
    return event(
        "device-" + random.nextInt(series),
        timeMillis,
        id,
        random.nextInt(DEVICE_TYPES.size()),
        random.nextInt(COUNTRIES.size()),
        random.nextInt(MAX_DURATION),
        probe);
  }

  private Event event(
      String seriesId,
      long timeMillis,
      String id,
      int device,
      int country,
      int duration,
      String probe) {
    byte[] payload = new byte[100];
    random.nextBytes(payload);
    Event.Builder event =
        Event.newBuilder()
            .setTimeSeriesId(seriesId)
            .setEventTime(timestamp(timeMillis))
            .setEventId(id)
            .addEventItems(
                EventItem.newBuilder()
                    .setEventItemKey(DEVICE_KEY)
                    .setEventItemValue(DEVICE_VALUES.get(device)))
            .addEventItems(
                EventItem.newBuilder()
                    .setEventItemKey(COUNTRY_KEY)
                    .setEventItemValue(COUNTRY_VALUES.get(country)))
            .addEventItems(
                EventItem.newBuilder()
                    .setEventItemKey(DURATION_KEY)
                    .setEventItemValue(ByteString.copyFromUtf8(Integer.toString(duration))))
            .addEventItems(
                EventItem.newBuilder()
                    .setEventItemKey(PAYLOAD_KEY)
                    .setEventItemValue(ByteString.copyFrom(payload)));
    if (probe != null) {
      event.addEventItems(
          EventItem.newBuilder()
              .setEventItemKey(PROBE_KEY)
              .setEventItemValue(ByteString.copyFromUtf8(probe)));
    }
    return event.build();
  }

  /**
   * Events of the data set in [from, to) with this device type and, when {@code durationFrom} is
   * not negative, a duration in [durationFrom, durationTo).
   */
  long count(int device, int durationFrom, int durationTo, long fromMillis, long toMillis) {
    long count = 0;
    for (int i = 0; i < times.length; i++) {
      if (devices[i] == device
          && times[i] >= fromMillis
          && times[i] < toMillis
          && (durationFrom < 0 || (durations[i] >= durationFrom && durations[i] < durationTo))) {
        count++;
      }
    }
    return count;
  }

  /** Events of the data set per country, for the countries that occur. */
  Map<String, Long> countsByCountry() {
    long[] counts = new long[COUNTRIES.size()];
    for (byte c : countries) {
      counts[c]++;
    }
    Map<String, Long> byCountry = new LinkedHashMap<>();
    for (int c = 0; c < counts.length; c++) {
      if (counts[c] > 0) {
        byCountry.put(COUNTRIES.get(c), counts[c]);
      }
    }
    return byCountry;
  }

  /** The value of an item of an event, as UTF-8 text, or null when the event has no such item. */
  static String item(Event event, String key) {
    for (EventItem item : event.getEventItemsList()) {
      if (item.getEventItemKey().toString(StandardCharsets.UTF_8).equals(key)) {
        return item.getEventItemValue().toString(StandardCharsets.UTF_8);
      }
    }
    return null;
  }

  static long millis(Timestamp t) {
    return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
  }

  static Timestamp timestamp(long millis) {
    return Timestamp.newBuilder()
        .setSeconds(Math.floorDiv(millis, 1000))
        .setNanos((int) Math.floorMod(millis, 1000) * 1_000_000)
        .build();
  }
}
