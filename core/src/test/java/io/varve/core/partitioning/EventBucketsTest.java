package io.varve.core.partitioning;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

class EventBucketsTest {

  private static final long T = 1_709_251_200_000L; // 2024-03-01T00:00:00Z

  /**
   * Golden CRC-32C values of the documented layout (int length + UTF-8 series id, long event time,
   * int length + UTF-8 event id, all big-endian), computed with an independent bitwise CRC-32C
   * (polynomial 0x82F63B78) outside Java. They pin the storage format.
   */
  static Stream<Arguments> golden() {
    return Stream.of(
        Arguments.of("series-1", T, "event-1", 0xe87cc917L),
        Arguments.of("café", 0L, "é", 0xbf7b211aL),
        Arguments.of("a", -1L, "b", 0x8753b2c9L),
        // same bytes, different split between the ids: the length prefixes tell them apart
        Arguments.of("ab", 5L, "c", 0x10f2b218L),
        Arguments.of("a", 5L, "bc", 0x2928738dL));
  }

  @ParameterizedTest(name = "{0} {1} {2}")
  @MethodSource("golden")
  void places_event_in_bucket_by_crc32c_of_its_identity(
      String series, long time, String eventId, long crc) {
    assertThat(layoutCrc(series, time, eventId)).as("layout as documented").isEqualTo(crc);
    for (int buckets : new int[] {2, 3, 4, 7, 8, 16, 64}) {
      assertThat(EventBuckets.of(series, time, eventId, buckets))
          .as("%d buckets", buckets)
          .isEqualTo((int) (crc % buckets));
    }
  }

  @Test
  void places_the_same_event_in_the_same_bucket_every_time() {
    for (int i = 0; i < 200; i++) {
      String series = "series-" + i;
      String id = "event-" + (i * 31);
      int first = EventBuckets.of(series, T + i, id, 16);
      // equal but distinct strings, as a retried or hedged request would carry
      int again =
          EventBuckets.of(
              new String(series.toCharArray()), T + i, new String(id.toCharArray()), 16);
      assertThat(again).isEqualTo(first);
    }
  }

  @ParameterizedTest(name = "{0} buckets")
  @ValueSource(ints = {1, 2, 3, 5, 8, 13, 32, 63, 64})
  void places_every_event_in_range(int buckets) {
    for (int i = 0; i < 2000; i++) {
      assertThat(EventBuckets.of("s" + (i % 7), T - 500_000 + i * 997L, "e" + i, buckets))
          .isBetween(0, buckets - 1);
    }
  }

  @ParameterizedTest(name = "{0} buckets")
  @ValueSource(ints = {2, 4, 8, 16, 64})
  void spreads_many_events_evenly_over_all_buckets(int buckets) {
    int perBucket = 1000;
    int[] counts = new int[buckets];
    for (int i = 0; i < buckets * perBucket; i++) {
      // a burst on one series within one second: the case event buckets exist for
      counts[EventBuckets.of("hot-series", T + (i % 1000), "evt-" + i, buckets)]++;
    }
    for (int b = 0; b < buckets; b++) {
      assertThat(counts[b])
          .as("events in bucket %d", b)
          .isBetween(perBucket * 8 / 10, perBucket * 12 / 10);
    }
  }

  @Test
  void depends_on_series_time_and_event_id() {
    int bySeries = 0;
    int byTime = 0;
    int byId = 0;
    for (int i = 0; i < 100; i++) {
      int base = EventBuckets.of("s", T, "e" + i, 16);
      bySeries += EventBuckets.of("s2", T, "e" + i, 16) != base ? 1 : 0;
      byTime += EventBuckets.of("s", T + 1, "e" + i, 16) != base ? 1 : 0;
      byId += EventBuckets.of("s", T, "e" + i + "x", 16) != base ? 1 : 0;
    }
    // a hash ignoring one part would move none; a good one moves about 15 in 16
    assertThat(bySeries).isGreaterThan(70);
    assertThat(byTime).isGreaterThan(70);
    assertThat(byId).isGreaterThan(70);
  }

  @Test
  void is_zero_with_one_event_bucket() {
    assertThat(EventBuckets.of("series-1", T, "event-1", 1)).isZero();
    assertThat(EventBuckets.of("café", -1, "é", 1)).isZero();
  }

  private static long layoutCrc(String series, long time, String eventId) {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      byte[] s = series.getBytes(StandardCharsets.UTF_8);
      byte[] e = eventId.getBytes(StandardCharsets.UTF_8);
      out.writeInt(s.length);
      out.write(s);
      out.writeLong(time);
      out.writeInt(e.length);
      out.write(e);
    } catch (IOException ex) {
      throw new UncheckedIOException(ex);
    }
    CRC32C crc = new CRC32C();
    crc.update(bytes.toByteArray());
    return crc.getValue();
  }
}
