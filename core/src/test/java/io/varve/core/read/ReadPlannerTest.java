package io.varve.core.read;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class ReadPlannerTest {

  /** Out of retention: never read. */
  private static final TimeSlice FEB_29 = slice("2024-02-29", 21_600, 2, SliceStatus.CLOSED);

  /** Six-hour buckets, two event buckets. */
  private static final TimeSlice MAR_01 = slice("2024-03-01", 21_600, 2, SliceStatus.ACTIVE);

  /** After a settings change: twelve-hour buckets, three event buckets. */
  private static final TimeSlice MAR_02 = slice("2024-03-02", 43_200, 3, SliceStatus.ACTIVE);

  /** In no particular order, as the metadata store may return them. */
  private static final List<TimeSlice> SLICES = List.of(MAR_01, FEB_29, MAR_02);

  private static TimeSlice slice(
      String day, long bucketSeconds, int eventBuckets, SliceStatus status) {
    Instant start = Instant.parse(day + "T00:00:00Z");
    return new TimeSlice(
        "ns",
        start,
        start.plus(Duration.ofDays(1)),
        "ns_" + day.replace("-", ""),
        bucketSeconds,
        eventBuckets,
        status);
  }

  private static long ms(String instant) {
    return Instant.parse(instant).toEpochMilli();
  }

  private static BucketScan scan(TimeSlice slice, String bucket, String from, String to) {
    return new BucketScan(slice.table(), ms(bucket), slice.eventBuckets(), ms(from), ms(to));
  }

  static Stream<Arguments> plans() {
    return Stream.of(
        Arguments.of(
            "across a slice boundary, clipped at both ends",
            "2024-03-01T07:00:00Z",
            "2024-03-02T13:00:00Z",
            null,
            List.of(
                scan(
                    MAR_02, "2024-03-02T12:00:00Z", "2024-03-02T12:00:00Z", "2024-03-02T13:00:00Z"),
                scan(
                    MAR_02, "2024-03-02T00:00:00Z", "2024-03-02T00:00:00Z", "2024-03-02T12:00:00Z"),
                scan(
                    MAR_01, "2024-03-01T18:00:00Z", "2024-03-01T18:00:00Z", "2024-03-02T00:00:00Z"),
                scan(
                    MAR_01, "2024-03-01T12:00:00Z", "2024-03-01T12:00:00Z", "2024-03-01T18:00:00Z"),
                scan(
                    MAR_01,
                    "2024-03-01T06:00:00Z",
                    "2024-03-01T07:00:00Z",
                    "2024-03-01T12:00:00Z"))),
        Arguments.of(
            "a closed slice is skipped",
            "2024-02-29T00:00:00Z",
            "2024-03-01T12:00:00Z",
            null,
            List.of(
                scan(
                    MAR_01, "2024-03-01T06:00:00Z", "2024-03-01T06:00:00Z", "2024-03-01T12:00:00Z"),
                scan(
                    MAR_01,
                    "2024-03-01T00:00:00Z",
                    "2024-03-01T00:00:00Z",
                    "2024-03-01T06:00:00Z"))),
        Arguments.of(
            "one millisecond at a slice start",
            "2024-03-02T00:00:00Z",
            "2024-03-02T00:00:00.001Z",
            null,
            List.of(
                scan(
                    MAR_02,
                    "2024-03-02T00:00:00Z",
                    "2024-03-02T00:00:00Z",
                    "2024-03-02T00:00:00.001Z"))),
        Arguments.of(
            "to is exclusive: ending at a slice start leaves that slice out",
            "2024-03-01T20:00:00Z",
            "2024-03-02T00:00:00Z",
            null,
            List.of(
                scan(
                    MAR_01,
                    "2024-03-01T18:00:00Z",
                    "2024-03-01T20:00:00Z",
                    "2024-03-02T00:00:00Z"))),
        Arguments.of(
            "no slice in the interval",
            "2024-03-05T00:00:00Z",
            "2024-03-06T00:00:00Z",
            null,
            List.of()),
        Arguments.of(
            "cursor inside a bucket ends the scan just after its millisecond",
            "2024-03-01T07:00:00Z",
            "2024-03-02T13:00:00Z",
            "2024-03-02T05:30:00Z",
            List.of(
                scan(
                    MAR_02,
                    "2024-03-02T00:00:00Z",
                    "2024-03-02T00:00:00Z",
                    "2024-03-02T05:30:00.001Z"),
                scan(
                    MAR_01, "2024-03-01T18:00:00Z", "2024-03-01T18:00:00Z", "2024-03-02T00:00:00Z"),
                scan(
                    MAR_01, "2024-03-01T12:00:00Z", "2024-03-01T12:00:00Z", "2024-03-01T18:00:00Z"),
                scan(
                    MAR_01,
                    "2024-03-01T06:00:00Z",
                    "2024-03-01T07:00:00Z",
                    "2024-03-01T12:00:00Z"))),
        Arguments.of(
            "cursor at a bucket's first millisecond keeps that millisecond",
            "2024-03-01T07:00:00Z",
            "2024-03-02T13:00:00Z",
            "2024-03-02T12:00:00Z",
            List.of(
                scan(
                    MAR_02,
                    "2024-03-02T12:00:00Z",
                    "2024-03-02T12:00:00Z",
                    "2024-03-02T12:00:00.001Z"),
                scan(
                    MAR_02, "2024-03-02T00:00:00Z", "2024-03-02T00:00:00Z", "2024-03-02T12:00:00Z"),
                scan(
                    MAR_01, "2024-03-01T18:00:00Z", "2024-03-01T18:00:00Z", "2024-03-02T00:00:00Z"),
                scan(
                    MAR_01, "2024-03-01T12:00:00Z", "2024-03-01T12:00:00Z", "2024-03-01T18:00:00Z"),
                scan(
                    MAR_01,
                    "2024-03-01T06:00:00Z",
                    "2024-03-01T07:00:00Z",
                    "2024-03-01T12:00:00Z"))),
        Arguments.of(
            "cursor at a slice's last millisecond leaves the newer slice out",
            "2024-03-01T07:00:00Z",
            "2024-03-02T13:00:00Z",
            "2024-03-01T23:59:59.999Z",
            List.of(
                scan(
                    MAR_01, "2024-03-01T18:00:00Z", "2024-03-01T18:00:00Z", "2024-03-02T00:00:00Z"),
                scan(
                    MAR_01, "2024-03-01T12:00:00Z", "2024-03-01T12:00:00Z", "2024-03-01T18:00:00Z"),
                scan(
                    MAR_01,
                    "2024-03-01T06:00:00Z",
                    "2024-03-01T07:00:00Z",
                    "2024-03-01T12:00:00Z"))),
        Arguments.of(
            "cursor past to changes nothing",
            "2024-03-01T20:00:00Z",
            "2024-03-02T00:00:00Z",
            "2024-03-05T00:00:00Z",
            List.of(
                scan(
                    MAR_01,
                    "2024-03-01T18:00:00Z",
                    "2024-03-01T20:00:00Z",
                    "2024-03-02T00:00:00Z"))));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("plans")
  void lists_buckets_newest_first_within_the_interval(
      String description, String from, String to, String cursorTime, List<BucketScan> expected) {
    Cursor cursor = cursorTime == null ? null : new Cursor(ms(cursorTime), "evt");

    List<BucketScan> plan = ReadPlanner.plan(SLICES, ms(from), ms(to), cursor, 1000);

    assertThat(plan).containsExactlyElementsOf(expected);
  }

  @Test
  void allows_exactly_max_partitions_and_refuses_one_more() {
    // [2024-03-01T07:00, 2024-03-02T13:00): 2 buckets x 3 + 3 buckets x 2 = 12 partitions
    long from = ms("2024-03-01T07:00:00Z");
    long to = ms("2024-03-02T13:00:00Z");

    List<BucketScan> plan = ReadPlanner.plan(SLICES, from, to, null, 12);

    assertThat(plan.stream().mapToInt(BucketScan::eventBuckets).sum()).isEqualTo(12);
    assertThatThrownBy(() -> ReadPlanner.plan(SLICES, from, to, null, 11))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("timeInterval"))
        .hasMessageContaining("11 partitions")
        .hasMessageContaining("narrower interval");
  }
}
