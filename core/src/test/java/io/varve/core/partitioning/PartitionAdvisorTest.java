package io.varve.core.partitioning;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.partitioning.PartitionAdvisor.Recommendation;
import io.varve.core.partitioning.PartitionAdvisor.Target;
import java.time.Duration;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class PartitionAdvisorTest {

  private static final Instant START = Instant.parse("2026-11-28T00:00:00Z");
  private static final TimePartition DAY = new TimePartition(86_400, 3_600, 4);
  private static final Target TARGET = new Target(10L << 20, 100_000);

  private static TimeSlice slice(long bucketSeconds, int eventBuckets) {
    return new TimeSlice(
        "ns",
        START,
        START.plus(Duration.ofDays(1)),
        "ns_20261128000000",
        bucketSeconds,
        eventBuckets,
        SliceStatus.ACTIVE);
  }

  /** A histogram whose 99th percentile partition holds {@code p99} rows of {@code rowBytes}. */
  private static SliceHistogram p99(long p99, long rowBytes) {
    long[] counts = new long[100];
    java.util.Arrays.fill(counts, 1);
    counts[98] = p99;
    counts[99] = p99;
    return SliceHistogram.of(START.plus(Duration.ofDays(2)), 1.0, counts, rowBytes, "hot");
  }

  @Test
  void partitions_within_the_target_keep_the_settings() {
    Recommendation r = PartitionAdvisor.recommend(slice(3600, 4), p99(50_000, 100), DAY, TARGET);
    assertThat(r.eventBuckets()).isEqualTo(4);
    assertThat(r.secondsPerTimeBucket()).isEqualTo(3600);
    assertThat(r.matches(DAY)).isTrue();
    assertThat(r.reason()).contains("within it");
  }

  @Test
  void a_dense_slice_gets_more_event_buckets_first() {
    // 400,000 rows at the p99: load 4, aim 0.5 -> 8 times the partitions: 32 event buckets
    Recommendation r = PartitionAdvisor.recommend(slice(3600, 4), p99(400_000, 10), DAY, TARGET);
    assertThat(r.load()).isEqualTo(4.0);
    assertThat(r.eventBuckets()).isEqualTo(32);
    assertThat(r.secondsPerTimeBucket()).isEqualTo(3600);
    assertThat(r.basedOn()).isEqualTo(START);
  }

  @Test
  void bytes_count_as_much_as_rows() {
    // 20,000 rows of 2 KiB = 40 MiB at the p99: load 4 in bytes, 0.2 in rows
    Recommendation r = PartitionAdvisor.recommend(slice(3600, 4), p99(20_000, 2048), DAY, TARGET);
    assertThat(r.load()).isCloseTo(3.906, org.assertj.core.data.Offset.offset(0.001));
    assertThat(r.eventBuckets()).isEqualTo(32);
  }

  @Test
  void beyond_the_most_event_buckets_time_buckets_narrow_and_divide_the_slice() {
    // load 40 from 4 buckets: 320 wanted, 64 possible, the rest (5x) from the time bucket
    Recommendation r = PartitionAdvisor.recommend(slice(3600, 4), p99(4_000_000, 1), DAY, TARGET);
    assertThat(r.eventBuckets()).isEqualTo(TimePartition.MAX_EVENT_BUCKETS);
    assertThat(r.secondsPerTimeBucket()).isLessThanOrEqualTo(3600 / 5);
    assertThat(86_400 % r.secondsPerTimeBucket()).isZero();
    assertThat(r.secondsPerTimeBucket()).isEqualTo(720);
  }

  @Test
  void time_buckets_never_narrow_below_the_bounds() {
    Recommendation r =
        PartitionAdvisor.recommend(slice(3600, 64), p99(1_000_000_000L, 1), DAY, TARGET);
    assertThat(r.secondsPerTimeBucket()).isGreaterThanOrEqualTo(60);
    assertThat(86_400 / r.secondsPerTimeBucket()).isLessThanOrEqualTo(10_000);
    TimePartition.validate("p", 86_400, r.secondsPerTimeBucket(), r.eventBuckets());
  }

  @ParameterizedTest(name = "{0} event buckets, p99 {1} rows -> {2} buckets of {3} s")
  @CsvSource({
    "16, 1000, 1, 14400", // load 0.01: 16 * 0.02 = 0.32 -> 1 event bucket, 1/0.32 wider: 4 h
    "16, 10000, 4, 3600", // load 0.1: 16 * 0.2 = 3.2 -> 4
    "1, 1000, 1, 86400", // already one event bucket: wider time buckets, up to the slice
    "1, 10000, 1, 21600", // load 0.1: 5x wider than an hour, on the next divisor of the day
  })
  void over_partitioned_slices_get_fewer_partitions(
      int events, long p99Rows, int expectedEvents, long expectedBucket) {
    Recommendation r =
        PartitionAdvisor.recommend(slice(3600, events), p99(p99Rows, 1), DAY, TARGET);
    assertThat(r.eventBuckets()).isEqualTo(expectedEvents);
    assertThat(r.secondsPerTimeBucket()).isEqualTo(expectedBucket);
    assertThat(r.reason()).contains("over-partitioned");
  }

  @Test
  void an_empty_slice_changes_nothing() {
    SliceHistogram empty = SliceHistogram.of(START, 1.0, new long[0], 0, "");
    Recommendation r = PartitionAdvisor.recommend(slice(3600, 4), empty, DAY, TARGET);
    assertThat(r.matches(DAY)).isTrue();
  }
}
