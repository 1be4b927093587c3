package io.varve.cassandra.events;

import static io.varve.cassandra.events.TestEvents.event;
import static io.varve.cassandra.events.TestEvents.partition;
import static io.varve.cassandra.events.TestEvents.place;
import static io.varve.cassandra.events.TestEvents.utf8;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.TestSessions;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.namespace.Consistency;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.BucketScan;
import io.varve.core.read.Cursor;
import io.varve.core.read.PartitionRead;
import io.varve.core.read.PartitionReader;
import io.varve.core.read.PartitionScan;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * One partition read page by page on the real test Cassandra. A page holds {@code max(16, 2 *
 * maxEvents + 1)} rows and an event has a row per item, so events of three items straddle page
 * boundaries; the reader must reassemble them whole, newest first, and fetch further pages only
 * while events are wanted.
 */
class CqlPartitionReaderIT {

  static final String KEYSPACE = "cassandra_reader_it";
  static final Instant DAY = Instant.parse("2024-03-08T00:00:00Z");

  /** One event bucket, so that every event of a time bucket is in one partition. */
  static final TimeSlice SLICE =
      new TimeSlice(
          "reader", DAY, DAY.plusSeconds(86_400), "reader_20240308", 3600, 1, SliceStatus.ACTIVE);

  static final long HOUR = DAY.plusSeconds(7200).toEpochMilli();
  static final int EVENTS = 40;
  static CqlSession session;
  static PartitionReader reader;

  /** The partition's events, newest first. */
  static final List<Event> written = new ArrayList<>();

  @BeforeAll
  static void write() {
    session = TestSessions.open();
    TestSessions.freshKeyspace(session, KEYSPACE)
        .create(KEYSPACE, SLICE.table())
        .toCompletableFuture()
        .join();
    CqlEventStore store = new CqlEventStore(session, 16, 8L * 1024 * 1024, 4096);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      // pairs of events share a millisecond: ties are ordered by event id
      events.add(
          event(
              "series",
              HOUR + 1000L * (i / 2),
              "id-" + (char) ('a' + i % 2) + i,
              "a",
              "1-" + i,
              "b",
              i % 7 == 0 ? "match" : "other",
              "c",
              "3-" + i));
    }
    assertThat(
            store
                .write(KEYSPACE, place(SLICE, events), Consistency.DEFAULT)
                .toCompletableFuture()
                .join())
        .isEmpty();
    events.stream().sorted(Event::newestFirst).forEach(written::add);
    reader = store.reader(KEYSPACE, "series", Consistency.DEFAULT);
  }

  @AfterAll
  static void close() {
    session.close();
  }

  static List<Event> read(Cursor cursor, List<EventItem> filters, int maxEvents) {
    PartitionScan scan = partition(SLICE, HOUR, 0);
    return reader.read(scan, cursor, filters, maxEvents).toCompletableFuture().join().events();
  }

  /** Starts {@code reads} reads of the partition at once; the failures, by their kind. */
  private static java.util.Map<String, Long> readsAtOnce(int reads) {
    List<java.util.concurrent.CompletableFuture<PartitionRead>> all = new ArrayList<>();
    for (int i = 0; i < reads; i++) {
      all.add(reader.read(partition(SLICE, HOUR, 0), null, List.of(), 1).toCompletableFuture());
    }
    java.util.Map<String, Long> failures = new java.util.TreeMap<>();
    for (var read : all) {
      try {
        if (read.join().events().size() != 1) {
          failures.merge("incomplete", 1L, Long::sum);
        }
      } catch (java.util.concurrent.CompletionException e) {
        String kind =
            e.getCause() instanceof io.varve.core.error.VarveException v
                ? v.kind() + (v.getMessage().contains("partition reads wait") ? " (waiting)" : "")
                : String.valueOf(e.getCause());
        failures.merge(kind, 1L, Long::sum);
      }
    }
    return failures;
  }

  @Test
  void more_reads_at_once_than_the_driver_s_connections_take_succeed_or_are_refused_as_overload() {
    // a search page reads one partition per hit: seventeen pages of 1000 hits at once went beyond
    // what the driver's connections to a node take, and some failed as if the node were down
    // (44 of 20,000 here) until the store bounded its reads in flight
    assertThat(readsAtOnce(CqlEventStore.MAX_READS_IN_FLIGHT + CqlEventStore.MAX_READS_WAITING))
        .as("failures of reads that all fit in flight or waiting")
        .isEmpty();
    // beyond what may wait, reads are refused as overload (429), never as a node down
    assertThat(readsAtOnce(30_000).keySet())
        .isSubsetOf(java.util.Set.of("RESOURCE_EXHAUSTED (waiting)"));
  }

  @Test
  void small_pages_of_rows_give_whole_events_newest_first_and_a_cursor_resumes_after_the_last() {
    List<Event> all = new ArrayList<>();
    Cursor cursor = null;
    for (int page = 0; page < EVENTS; page++) {
      List<Event> events = read(cursor, List.of(), 5);
      if (events.isEmpty()) {
        break;
      }
      assertThat(events.size()).isLessThanOrEqualTo(5);
      all.addAll(events);
      cursor = Cursor.after(events.get(events.size() - 1));
    }
    assertThat(all).containsExactlyElementsOf(written);
    assertThat(all).allSatisfy(e -> assertThat(e.items()).hasSize(3));
  }

  @Test
  void one_read_of_every_event_spans_several_pages_of_rows() {
    assertThat(read(null, List.of(), EVENTS + 1)).containsExactlyElementsOf(written);
    assertThat(read(null, List.of(), 1)).containsExactly(written.get(0));
  }

  @Test
  void a_filter_keeps_reading_pages_until_enough_events_match() {
    List<EventItem> filters = List.of(new EventItem(utf8("b"), utf8("match")));
    List<Event> matching =
        written.stream().filter(e -> new String(e.items().get(1).value()).equals("match")).toList();
    assertThat(matching).hasSizeGreaterThan(3);

    assertThat(read(null, filters, 3)).containsExactlyElementsOf(matching.subList(0, 3));
    assertThat(read(Cursor.after(matching.get(2)), filters, 100))
        .containsExactlyElementsOf(matching.subList(3, matching.size()));
  }

  @Test
  void only_the_scans_time_range_and_partition_are_read() {
    PartitionScan whole = partition(SLICE, HOUR, 0);
    long from = written.get(9).eventTimeMillis();
    long to = written.get(2).eventTimeMillis();
    PartitionScan narrow =
        new PartitionScan(
            new BucketScan(SLICE.table(), whole.bucket().timeBucketMillis(), 1, from, to), 0);

    List<Event> events =
        reader.read(narrow, null, List.of(), 100).toCompletableFuture().join().events();

    assertThat(events)
        .isNotEmpty()
        .allSatisfy(e -> assertThat(e.eventTimeMillis()).isBetween(from, to - 1));
    assertThat(events)
        .containsExactlyElementsOf(
            written.stream()
                .filter(e -> e.eventTimeMillis() >= from && e.eventTimeMillis() < to)
                .toList());
    assertThat(read(null, List.of(), 10).get(0)).isEqualTo(written.get(0));
    PartitionScan otherHour = partition(SLICE, HOUR + 3_600_000, 0);
    assertThat(reader.read(otherHour, null, List.of(), 10).toCompletableFuture().join().events())
        .isEmpty();
  }
}
