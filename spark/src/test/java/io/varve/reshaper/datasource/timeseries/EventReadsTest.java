package io.varve.reshaper.datasource.timeseries;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class EventReadsTest {

  private static final long HOUR = 3_600_000L;

  /** Slices of one hour from hour 0, each with 10-minute buckets of 4 event buckets. */
  private static List<TimeSlice> slices(int count, SliceStatus... statuses) {
    List<TimeSlice> slices = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      slices.add(
          new TimeSlice(
              "ns",
              Instant.ofEpochMilli(i * HOUR),
              Instant.ofEpochMilli((i + 1) * HOUR),
              "ns_s" + i,
              600,
              4,
              i < statuses.length ? statuses[i] : SliceStatus.ACTIVE));
    }
    return slices;
  }

  @Test
  void token_ranges_cover_every_slice_of_the_interval_with_one_list_of_slices_shared() {
    List<TimeSlice> touched =
        EventReads.slices(slices(4, SliceStatus.CLOSED), HOUR / 2, 3 * HOUR + HOUR / 2);
    assertThat(touched).extracting(TimeSlice::table).containsExactly("ns_s1", "ns_s2", "ns_s3");

    List<EventReads.Part> parts = EventReads.byRange(touched, HOUR / 2, 3 * HOUR + HOUR / 2, 8);
    assertThat(parts).hasSize(8);
    assertThat(parts).allSatisfy(p -> assertThat(p.spans()).isSameAs(parts.get(0).spans()));
    assertThat(parts.get(0).start()).isEqualTo(Long.MIN_VALUE);
    assertThat(parts.get(7).end()).isEqualTo(Long.MAX_VALUE);
    for (int i = 1; i < parts.size(); i++) {
      assertThat(parts.get(i).start()).isEqualTo(parts.get(i - 1).end());
    }
    List<EventReads.Read> reads = new ArrayList<>();
    parts.get(3).reads().forEachRemaining(reads::add);
    assertThat(reads)
        .containsExactly(
            new EventReads.RangeRead(
                "ns_s1", parts.get(3).start(), parts.get(3).end(), HOUR, 2 * HOUR, true),
            new EventReads.RangeRead(
                "ns_s2", parts.get(3).start(), parts.get(3).end(), 2 * HOUR, 3 * HOUR, true),
            new EventReads.RangeRead(
                "ns_s3",
                parts.get(3).start(),
                parts.get(3).end(),
                3 * HOUR,
                3 * HOUR + HOUR / 2,
                false));
    assertThat(EventReads.byRange(List.of(), 0, HOUR, 8)).isEmpty();
  }

  @Test
  void ids_are_read_by_key_in_near_equal_parts_and_too_many_fall_back_to_ranges() {
    List<TimeSlice> touched = EventReads.slices(slices(2), 0, 2 * HOUR);
    List<EventReads.Part> parts = EventReads.byKey(touched, Set.of("a", "b", "c"), 0, 2 * HOUR, 5);
    assertThat(parts).hasSize(5);
    int total = parts.stream().mapToInt(EventReads.Part::size).sum();
    assertThat(total).as("3 ids x 12 buckets x 4 event buckets").isEqualTo(3 * 12 * 4);
    assertThat(parts).allSatisfy(p -> assertThat(p.size()).isBetween(28, 29));

    Set<String> many = new LinkedHashSet<>();
    for (int i = 0; i <= EventReads.MAX_KEY_READS / 48; i++) {
      many.add("id-" + i);
    }
    assertThat(EventReads.byKey(touched, many, 0, 2 * HOUR, 5)).isNull();
  }
}
