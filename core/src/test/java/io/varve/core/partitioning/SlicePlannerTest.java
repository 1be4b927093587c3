package io.varve.core.partitioning;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SlicePlannerTest {

  private static final String NS = "orders";
  private static final TimePartition DAILY = new TimePartition(86_400, 3_600, 4);
  private static final Instant D1 = Instant.parse("2024-03-01T00:00:00Z");

  private static Instant day(int n) {
    return D1.plus(Duration.ofDays(n - 1));
  }

  private static TimeSlice existing(Instant start, Instant end) {
    return new TimeSlice(
        NS, start, end, SliceTableName.of(NS, start), 3_600, 4, SliceStatus.ACTIVE);
  }

  @Test
  void first_slice_of_a_namespace_starts_at_from_rounded_down_to_the_slice_width() {
    // 36 h slices: epoch multiples are 1970-01-01T00:00, 1970-01-02T12:00, 1970-01-04T00:00, ...
    TimePartition partition = new TimePartition(129_600, 3_600, 4);
    Instant from = Instant.parse("1970-01-03T05:00:00Z"); // 53 h after the epoch
    Instant to = Instant.parse("1970-01-04T01:00:00Z"); // 73 h

    List<TimeSlice> created = SlicePlanner.missing(NS, partition, List.of(), from, to);

    assertThat(created)
        .extracting(TimeSlice::start, TimeSlice::end)
        .containsExactly(
            Tuple.tuple(
                Instant.parse("1970-01-02T12:00:00Z"), Instant.parse("1970-01-04T00:00:00Z")),
            Tuple.tuple(
                Instant.parse("1970-01-04T00:00:00Z"), Instant.parse("1970-01-05T12:00:00Z")));
  }

  @ParameterizedTest(name = "[{0}, {1})")
  @CsvSource({
    "2024-03-01T00:00:00Z, 2024-03-01T00:00:00.001Z, 2024-03-01T00:00:00Z, 1",
    "2024-03-01T05:00:00Z, 2024-03-03T01:00:00Z, 2024-03-01T00:00:00Z, 3",
    "2024-03-01T23:59:59.999Z, 2024-03-02T00:00:00Z, 2024-03-01T00:00:00Z, 1", // to is exclusive
    "2024-03-01T23:59:59.999Z, 2024-03-02T00:00:00.001Z, 2024-03-01T00:00:00Z, 2",
  })
  void covers_a_new_namespace_with_daily_slices(
      Instant from, Instant to, Instant firstStart, int count) {
    List<TimeSlice> created = SlicePlanner.missing(NS, DAILY, List.of(), from, to);

    assertThat(created).hasSize(count);
    assertThat(created.get(0).start()).isEqualTo(firstStart);
    assertContiguous(created);
    assertThat(created.get(created.size() - 1).end()).isAfterOrEqualTo(to);
    assertThat(created)
        .allSatisfy(
            s -> {
              assertThat(s.namespace()).isEqualTo(NS);
              assertThat(s.table()).isEqualTo(SliceTableName.of(NS, s.start()));
              assertThat(s.status()).isEqualTo(SliceStatus.ACTIVE);
              assertThat(s.secondsPerTimeBucket()).isEqualTo(3_600);
              assertThat(s.eventBuckets()).isEqualTo(4);
              assertThat(Duration.between(s.start(), s.end())).isEqualTo(Duration.ofDays(1));
            });
  }

  @ParameterizedTest(name = "[{0}, {1})")
  @CsvSource({
    "2024-03-02T00:00:00Z, 2024-03-04T00:00:00Z", // exactly the existing run
    "2024-03-02T10:00:00Z, 2024-03-03T10:00:00Z", // inside it
    "2024-03-03T23:59:59.999Z, 2024-03-04T00:00:00Z", // its last millisecond
  })
  void creates_nothing_when_existing_slices_cover_the_interval(Instant from, Instant to) {
    List<TimeSlice> existing = List.of(existing(day(2), day(3)), existing(day(3), day(4)));

    assertThat(SlicePlanner.missing(NS, DAILY, existing, from, to)).isEmpty();
  }

  @Test
  void extends_the_existing_run_forward_from_its_end() {
    List<TimeSlice> existing = List.of(existing(day(1), day(2)));

    List<TimeSlice> created =
        SlicePlanner.missing(NS, DAILY, existing, day(1), day(3).plusMillis(1));

    assertThat(created).extracting(TimeSlice::start).containsExactly(day(2), day(3));
    assertThat(created.get(1).end()).isEqualTo(day(4));
  }

  @Test
  void extends_the_existing_run_backward_from_its_start() {
    List<TimeSlice> existing = List.of(existing(day(5), day(6)));

    List<TimeSlice> created =
        SlicePlanner.missing(NS, DAILY, existing, day(3).minusMillis(1), day(6));

    // time order, the last one ending exactly where the existing run starts
    assertThat(created).extracting(TimeSlice::start).containsExactly(day(2), day(3), day(4));
    assertThat(created.get(2).end()).isEqualTo(day(5));
  }

  @Test
  void extends_both_ways_from_unsorted_existing_slices() {
    List<TimeSlice> existing = List.of(existing(day(4), day(5)), existing(day(3), day(4)));

    List<TimeSlice> created =
        SlicePlanner.missing(NS, DAILY, existing, day(1).plusSeconds(1), day(6).plusSeconds(1));

    assertThat(created)
        .extracting(TimeSlice::start)
        .containsExactly(day(1), day(2), day(5), day(6));
    List<TimeSlice> all = new ArrayList<>(created);
    all.addAll(existing);
    all.sort((a, b) -> a.start().compareTo(b.start()));
    assertContiguous(all);
  }

  @Test
  void uses_new_partition_settings_for_new_slices_and_leaves_existing_ones_alone() {
    List<TimeSlice> existing = List.of(existing(day(2), day(3)), existing(day(3), day(4)));
    List<TimeSlice> before = List.copyOf(existing);
    TimePartition halfDays = new TimePartition(43_200, 1_800, 8);

    List<TimeSlice> created =
        SlicePlanner.missing(
            NS,
            halfDays,
            existing,
            day(1).plus(Duration.ofHours(1)),
            day(4).plus(Duration.ofHours(13)));

    assertThat(created)
        .extracting(TimeSlice::start)
        .containsExactly(
            day(1), day(1).plus(Duration.ofHours(12)), // backward, ending at day 2
            day(4), day(4).plus(Duration.ofHours(12))); // forward, starting at day 4
    assertThat(created)
        .allSatisfy(
            s -> {
              assertThat(Duration.between(s.start(), s.end())).isEqualTo(Duration.ofHours(12));
              assertThat(s.secondsPerTimeBucket()).isEqualTo(1_800);
              assertThat(s.eventBuckets()).isEqualTo(8);
            });
    assertThat(existing).isEqualTo(before);
    assertThat(created).noneMatch(before::contains);
  }

  @Test
  void leaves_no_gap_and_no_overlap_for_any_interval() {
    Random random = new Random(42);
    TimePartition sixHours = new TimePartition(21_600, 3_600, 2);
    for (int run = 0; run < 200; run++) {
      List<TimeSlice> existing = new ArrayList<>();
      if (random.nextBoolean()) {
        Instant start = day(10).plus(Duration.ofHours(random.nextInt(48)));
        int slices = 1 + random.nextInt(3);
        for (int i = 0; i < slices; i++) {
          existing.add(
              existing(start.plus(Duration.ofDays(i)), start.plus(Duration.ofDays(i + 1))));
        }
      }
      long from = day(5).toEpochMilli() + (long) (random.nextDouble() * 20 * 86_400_000L);
      long to = from + 1 + (long) (random.nextDouble() * 5 * 86_400_000L);

      List<TimeSlice> created =
          SlicePlanner.missing(
              NS, sixHours, existing, Instant.ofEpochMilli(from), Instant.ofEpochMilli(to));

      List<TimeSlice> all = new ArrayList<>(existing);
      all.addAll(created);
      all.sort((a, b) -> a.start().compareTo(b.start()));
      List<TimeSlice> window = all.stream().filter(s -> s.overlaps(from, to)).toList();
      assertContiguous(window);
      for (int i = 1; i < all.size(); i++) {
        assertThat(all.get(i).start())
            .as("run %d: no overlap", run)
            .isAfterOrEqualTo(all.get(i - 1).end());
      }
      assertThat(window.get(0).start().toEpochMilli())
          .as("run %d covers from", run)
          .isLessThanOrEqualTo(from);
      assertThat(window.get(window.size() - 1).end().toEpochMilli())
          .as("run %d covers to", run)
          .isGreaterThanOrEqualTo(to);
      // nothing beyond what is needed: each new slice shares time with [from, to) or fills the
      // space between it and an existing run that reaches into the window's side
      long runStart = existing.isEmpty() ? Long.MAX_VALUE : existing.get(0).start().toEpochMilli();
      long runEnd =
          existing.isEmpty()
              ? Long.MIN_VALUE
              : existing.get(existing.size() - 1).end().toEpochMilli();
      long lo = runEnd >= from ? Math.min(from, runStart) : from;
      long hi = runStart <= to ? Math.max(to, runEnd) : to;
      assertThat(created)
          .allSatisfy(
              s -> {
                assertThat(s.overlaps(lo, hi)).isTrue();
                assertThat(Duration.between(s.start(), s.end())).isEqualTo(Duration.ofHours(6));
              });
    }
  }

  @Test
  void skips_the_time_between_an_old_run_and_the_window_keeping_the_run_grid() {
    // the run ended a year before the window: only the window's slices are made, on the run's grid
    List<TimeSlice> existing = List.of(existing(day(1), day(2)));
    Instant from = day(366).plus(Duration.ofHours(5));

    List<TimeSlice> created =
        SlicePlanner.missing(NS, DAILY, existing, from, from.plus(Duration.ofHours(30)));

    assertThat(created).extracting(TimeSlice::start).containsExactly(day(366), day(367));
  }

  @Test
  void skips_the_time_between_the_window_and_a_run_far_ahead() {
    List<TimeSlice> existing = List.of(existing(day(400), day(401)));

    List<TimeSlice> created = SlicePlanner.missing(NS, DAILY, existing, day(10), day(11));

    assertThat(created).extracting(TimeSlice::start).containsExactly(day(10));
  }

  @Test
  void refuses_a_plan_beyond_its_bound_before_making_any_slice() {
    TimePartition hourly = new TimePartition(3_600, 3_600, 1);

    org.assertj.core.api.Assertions.assertThatThrownBy(
            () ->
                SlicePlanner.missing(
                    NS,
                    hourly,
                    List.of(),
                    day(1),
                    day(1).plus(Duration.ofHours(SlicePlanner.MAX_PLANNED + 1))))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("more than 10000");
    assertThat(
            SlicePlanner.missing(
                NS,
                hourly,
                List.of(),
                day(1),
                day(1).plus(Duration.ofHours(SlicePlanner.MAX_PLANNED))))
        .hasSize((int) SlicePlanner.MAX_PLANNED);
  }

  private static void assertContiguous(List<TimeSlice> slices) {
    for (int i = 1; i < slices.size(); i++) {
      assertThat(slices.get(i).start())
          .as("slice %d starts where slice %d ends", i, i - 1)
          .isEqualTo(slices.get(i - 1).end());
    }
  }
}
