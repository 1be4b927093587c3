package io.varve.core.partitioning;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class TimeSliceTest {

  private static final Instant START = Instant.parse("2024-03-01T00:00:00Z");
  private static final long S = START.toEpochMilli();
  private static final long HOUR = 3_600_000L;
  private static final long DAY = 24 * HOUR;

  /** A day slice of one-hour buckets. */
  private static final TimeSlice DAY_SLICE =
      new TimeSlice(
          "ns",
          START,
          START.plus(Duration.ofDays(1)),
          "ns_20240301000000",
          3600,
          4,
          SliceStatus.ACTIVE);

  @ParameterizedTest(name = "start{0}ms -> {1}")
  @CsvSource({
    "-1, false", // last ms of the previous slice
    "0, true", // start is inclusive
    "1, true",
    "43200000, true", // noon
    "86399999, true", // last ms of the slice
    "86400000, false", // end is exclusive: belongs to the next slice
  })
  void contains_is_start_inclusive_end_exclusive(long offset, boolean expected) {
    assertThat(DAY_SLICE.contains(S + offset)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "start+{0}ms in bucket start+{1}ms")
  @CsvSource({
    "0, 0", // exact slice start: first bucket
    "1, 0",
    "3599999, 0", // last ms of the first bucket
    "3600000, 3600000", // first ms of the second bucket
    "3600001, 3600000",
    "45000000, 43200000", // 12:30 -> 12:00
    "82800000, 82800000", // first ms of the last bucket (23:00)
    "86399999, 82800000", // slice end - 1: last bucket
  })
  void places_time_in_bucket_at_bucket_boundaries(long offset, long bucketOffset) {
    assertThat(DAY_SLICE.timeBucketOf(S + offset)).isEqualTo(S + bucketOffset);
  }

  @ParameterizedTest(name = "start+{0}min in bucket start+{1}min")
  @CsvSource({"0, 0", "29, 0", "59, 0", "60, 60", "119, 60", "719, 660"})
  void counts_buckets_from_slice_start_not_from_the_epoch(long minutes, long bucketMinutes) {
    // After a settings change a slice may start at a time that is no multiple of its bucket width
    // (here :30); its buckets must still lie inside it.
    Instant start = Instant.parse("2024-03-01T00:30:00Z");
    TimeSlice slice =
        new TimeSlice(
            "ns", start, start.plus(Duration.ofHours(12)), "t", 3600, 1, SliceStatus.ACTIVE);
    long t = start.toEpochMilli() + minutes * 60_000;

    long bucket = slice.timeBucketOf(t);

    assertThat(bucket).isEqualTo(start.toEpochMilli() + bucketMinutes * 60_000);
    assertThat(slice.contains(bucket)).isTrue();
  }

  @ParameterizedTest(name = "[{0}, {1}) -> {2}")
  @CsvSource({
    "-3600000, 0, false", // ends where the slice starts
    "-3600000, 1, true",
    "86399999, 90000000, true",
    "86400000, 90000000, false", // starts where the slice ends
    "-100, 86400100, true", // encloses the slice
    "1000, 2000, true", // inside
  })
  void overlaps_half_open_intervals(long fromOffset, long toOffset, boolean expected) {
    assertThat(DAY_SLICE.overlaps(S + fromOffset, S + toOffset)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "width {0}ms, bucket {1}s")
  @CsvSource({
    "0, 3600", // empty
    "-86400000, 3600", // end before start
    "5400000, 3600", // 1.5 h slice of 1 h buckets
  })
  void refuses_empty_slice_or_width_not_multiple_of_bucket(long widthMillis, long bucketSeconds) {
    assertThatThrownBy(
            () ->
                new TimeSlice(
                    "ns",
                    START,
                    START.plusMillis(widthMillis),
                    "t",
                    bucketSeconds,
                    4,
                    SliceStatus.ACTIVE))
        .isInstanceOf(IllegalArgumentException.class);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"CLOSED", "DELETING", "DELETED", "ACTIVE"})
  void with_status_changes_only_the_status_and_when(SliceStatus status) {
    Instant at = Instant.parse("2026-01-02T03:04:05Z");
    TimeSlice changed = DAY_SLICE.withStatus(status, at);

    assertThat(changed.status()).isEqualTo(status);
    assertThat(changed.lifecycle().statusTime()).contains(at);
    assertThat(changed)
        .usingRecursiveComparison()
        .ignoringFields("status", "lifecycle")
        .isEqualTo(DAY_SLICE);
    assertThat(changed.bucketMillis()).isEqualTo(HOUR);
    assertThat(changed.end().toEpochMilli() - changed.start().toEpochMilli()).isEqualTo(DAY);
  }
}
