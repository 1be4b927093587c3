package io.varve.core.write;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import io.varve.core.error.VarveException.Kind;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.namespace.Consistency;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.namespace.Retention;
import io.varve.core.namespace.TimeSeriesSlos;
import io.varve.core.partitioning.CompactionPolicy;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimePartition;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.slo.Slos;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.assertj.core.groups.Tuple;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class WritePlannerTest {

  private static final Instant NOW = Instant.parse("2024-03-10T12:00:00Z");

  /** Writes are accepted from 60 h before NOW, i.e. from 2024-03-08T00:00Z. */
  private static final Duration ACCEPT_LIMIT = Duration.ofHours(60);

  /** ... up to 14 h after NOW, i.e. up to 2024-03-11T02:00Z. */
  private static final Duration FUTURE_LIMIT = Duration.ofHours(14);

  private static final NamespaceSettings SETTINGS =
      new NamespaceSettings(
          "orders",
          "orders_ks",
          TimePartition.DEFAULT,
          Consistency.DEFAULT,
          ACCEPT_LIMIT,
          Retention.FOREVER,
          NamespaceSettings.DEFAULT_COALESCE,
          NamespaceSettings.DEFAULT_BUFFER_CAPACITY,
          0,
          Slos.defaults(TimeSeriesSlos.CATALOG),
          CompactionPolicy.DEFAULT);

  private static final TimeSlice MAR_07 = slice("2024-03-07", 3_600, 4, SliceStatus.DELETED);
  private static final TimeSlice MAR_08 = slice("2024-03-08", 3_600, 4, SliceStatus.CLOSED);
  private static final TimeSlice MAR_09 = slice("2024-03-09", 3_600, 4, SliceStatus.ACTIVE);

  /** Created after a settings change: half-hour buckets, 8 event buckets. No slice after it yet. */
  private static final TimeSlice MAR_10 = slice("2024-03-10", 1_800, 8, SliceStatus.ACTIVE);

  private static final List<TimeSlice> SLICES = List.of(MAR_10, MAR_09, MAR_08, MAR_07);

  private static TimeSlice slice(
      String day, long bucketSeconds, int eventBuckets, SliceStatus status) {
    Instant start = Instant.parse(day + "T00:00:00Z");
    return new TimeSlice(
        "orders",
        start,
        start.plus(Duration.ofDays(1)),
        "orders_" + day.replace("-", "") + "000000",
        bucketSeconds,
        eventBuckets,
        status);
  }

  private static Event event(String series, Instant time, String id) {
    return new Event(
        series, time.toEpochMilli(), id, List.of(new EventItem("k".getBytes(UTF_8), new byte[1])));
  }

  private static WritePlan plan(List<Event> events) {
    return WritePlanner.plan(SETTINGS, SLICES, events, NOW, FUTURE_LIMIT);
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "2024-03-07T23:59:59.999Z | FAILED_PRECONDITION | older than the namespace's acceptLimit (216000s): writes are accepted from 2024-03-08T00:00:00Z",
        "2024-01-01T00:00:00Z     | FAILED_PRECONDITION | older than the namespace's acceptLimit (216000s)",
        "2024-03-08T00:00:00Z     | FAILED_PRECONDITION | falls in time slice orders_20240308000000 which is CLOSED",
        "2024-03-08T23:59:59.999Z | FAILED_PRECONDITION | falls in time slice orders_20240308000000 which is CLOSED",
        "2024-03-11T00:00:00Z     | UNAVAILABLE         | falls in no time slice yet",
        "2024-03-11T02:00:00Z     | UNAVAILABLE         | falls in no time slice yet",
        "2024-03-11T02:00:00.001Z | FAILED_PRECONDITION | is more than 50400s in the future: writes are accepted up to 2024-03-11T02:00:00Z",
      })
  void rejects_event_that_cannot_be_written_now_naming_it(Instant time, Kind kind, String why) {
    Event event = event("series-a", time, "evt-1");

    WritePlan plan = plan(List.of(event));

    assertThat(plan.partitions()).isEmpty();
    assertThat(plan.rejections())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.index()).isZero();
              assertThat(r.event()).isSameAs(event);
              assertThat(r.kind()).isEqualTo(kind);
              assertThat(r.message())
                  .startsWith(
                      "events[0] (timeSeriesId=series-a, eventId=evt-1, eventTime=" + time + ")")
                  .contains(why);
            });
  }

  @Test
  void rejects_event_of_a_deleted_slice_once_the_accept_limit_allows_it() {
    // with a longer accept limit the DELETED slice is reachable by time, and still refused
    NamespaceSettings backfill =
        new NamespaceSettings(
            "orders",
            "orders_ks",
            TimePartition.DEFAULT,
            Consistency.DEFAULT,
            Duration.ofDays(30),
            Retention.FOREVER,
            Duration.ZERO,
            0,
            0,
            Slos.defaults(TimeSeriesSlos.CATALOG),
            CompactionPolicy.DEFAULT);
    Event event = event("s", Instant.parse("2024-03-07T12:00:00Z"), "e");

    WritePlan plan = WritePlanner.plan(backfill, SLICES, List.of(event), NOW, FUTURE_LIMIT);

    assertThat(plan.rejections())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.kind()).isEqualTo(Kind.FAILED_PRECONDITION);
              assertThat(r.message()).contains("orders_20240307000000", "DELETED");
            });
  }

  @ParameterizedTest(name = "{0} -> {1} bucket {2}")
  @CsvSource({
    "2024-03-09T00:00:00Z,     orders_20240309000000, 2024-03-09T00:00:00Z, 4", // first ms of a
    // slice
    "2024-03-09T13:00:00Z,     orders_20240309000000, 2024-03-09T13:00:00Z, 4", // first ms of a
    // bucket
    "2024-03-09T13:59:59.999Z, orders_20240309000000, 2024-03-09T13:00:00Z, 4", // last ms of a
    // bucket
    "2024-03-09T23:59:59.999Z, orders_20240309000000, 2024-03-09T23:00:00Z, 4", // last ms of a
    // slice
    "2024-03-10T00:00:00Z,     orders_20240310000000, 2024-03-10T00:00:00Z, 8", // next slice
    "2024-03-10T10:29:59.999Z, orders_20240310000000, 2024-03-10T10:00:00Z, 8", // half-hour buckets
    // there
    "2024-03-10T10:30:00Z,     orders_20240310000000, 2024-03-10T10:30:00Z, 8",
    "2024-03-10T23:59:59.999Z, orders_20240310000000, 2024-03-10T23:30:00Z, 8",
  })
  void places_event_in_its_slice_time_bucket_and_event_bucket(
      Instant time, String table, Instant bucket, int eventBuckets) {
    Event event = event("series-a", time, "evt-42");

    WritePlan plan = plan(List.of(event));

    PartitionKey key =
        new PartitionKey(
            table,
            "series-a",
            bucket.toEpochMilli(),
            EventBuckets.of("series-a", time.toEpochMilli(), "evt-42", eventBuckets));
    assertThat(plan.rejections()).isEmpty();
    assertThat(plan.partitions()).containsOnlyKeys(key);
    assertThat(plan.partitions().get(key)).containsExactly(new PlacedEvent(0, event, key));
  }

  @Test
  void uses_the_event_bucket_count_of_the_slice_not_of_the_current_settings() {
    // settings say 4 event buckets; the 2024-03-10 slice was created with 8
    Set<Integer> used = new HashSet<>();
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 200; i++) {
      events.add(event("series-a", Instant.parse("2024-03-10T10:40:00Z").plusMillis(i), "e" + i));
    }
    plan(events).partitions().keySet().forEach(k -> used.add(k.eventBucket()));

    assertThat(used).containsExactlyInAnyOrder(0, 1, 2, 3, 4, 5, 6, 7);
  }

  @Test
  void groups_valid_events_by_partition_in_batch_order() {
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < 120; i++) {
      String series = i % 3 == 0 ? "series-b" : "series-a";
      // spread over 2024-03-09T20:00 .. 2024-03-10T03:59: two slices, several buckets of each
      Instant time = Instant.parse("2024-03-09T20:00:00Z").plus(Duration.ofMinutes(i * 4L));
      events.add(event(series, time, "e" + (i % 10)));
    }

    WritePlan plan = plan(events);

    Map<PartitionKey, List<PlacedEvent>> expected = new LinkedHashMap<>();
    for (int i = 0; i < events.size(); i++) {
      Event e = events.get(i);
      Instant t = Instant.ofEpochMilli(e.eventTimeMillis());
      boolean mar10 = !t.isBefore(MAR_10.start());
      Instant hour = t.truncatedTo(ChronoUnit.HOURS);
      Instant bucket =
          mar10 && t.atZone(ZoneOffset.UTC).getMinute() >= 30
              ? hour.plus(Duration.ofMinutes(30))
              : hour;
      PartitionKey key =
          new PartitionKey(
              mar10 ? "orders_20240310000000" : "orders_20240309000000",
              e.timeSeriesId(),
              bucket.toEpochMilli(),
              EventBuckets.of(e.timeSeriesId(), e.eventTimeMillis(), e.eventId(), mar10 ? 8 : 4));
      expected.computeIfAbsent(key, k -> new ArrayList<>()).add(new PlacedEvent(i, e, key));
    }
    assertThat(plan.rejections()).isEmpty();
    assertThat(plan.partitions()).isEqualTo(expected);
    assertThat(plan.partitions().values())
        .allSatisfy(group -> assertThat(group).extracting(PlacedEvent::index).isSorted());
    // both time series and both slices are present, and several events share a partition
    assertThat(plan.partitions().keySet())
        .extracting(PartitionKey::timeSeriesId)
        .contains("series-a", "series-b");
    assertThat(plan.partitions().keySet())
        .extracting(PartitionKey::table)
        .contains("orders_20240309000000", "orders_20240310000000");
    assertThat(plan.partitions()).hasSizeLessThan(events.size());
  }

  @Test
  void keeps_batch_indexes_of_placed_and_rejected_events() {
    List<Event> events =
        List.of(
            event("s", Instant.parse("2024-03-10T11:00:00Z"), "ok-0"),
            event("s", Instant.parse("2024-03-01T00:00:00Z"), "old-1"),
            event("s", Instant.parse("2024-03-09T11:00:00Z"), "ok-2"),
            event("s", Instant.parse("2024-03-11T01:00:00Z"), "noslice-3"),
            event("s", Instant.parse("2024-03-08T11:00:00Z"), "closed-4"),
            event("s", Instant.parse("2024-03-12T00:00:00Z"), "future-5"),
            event("s", Instant.parse("2024-03-10T11:00:00.001Z"), "ok-6"));

    WritePlan plan = plan(events);

    List<PlacedEvent> placed =
        plan.partitions().values().stream()
            .flatMap(List::stream)
            .sorted((a, b) -> Integer.compare(a.index(), b.index()))
            .collect(Collectors.toList());
    assertThat(placed).extracting(PlacedEvent::index).containsExactly(0, 2, 6);
    assertThat(placed).allSatisfy(p -> assertThat(p.event()).isSameAs(events.get(p.index())));
    assertThat(plan.rejections())
        .extracting(Rejection::index, Rejection::kind)
        .containsExactly(
            Tuple.tuple(1, Kind.FAILED_PRECONDITION),
            Tuple.tuple(3, Kind.UNAVAILABLE),
            Tuple.tuple(4, Kind.FAILED_PRECONDITION),
            Tuple.tuple(5, Kind.FAILED_PRECONDITION));
    assertThat(plan.rejections())
        .allSatisfy(
            r -> {
              assertThat(r.event()).isSameAs(events.get(r.index()));
              assertThat(r.message())
                  .startsWith("events[" + r.index() + "] ")
                  .contains(r.event().eventId());
            });
  }
}
