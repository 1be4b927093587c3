package io.varve.cassandra.events;

import static io.varve.cassandra.events.TestEvents.event;
import static io.varve.cassandra.events.TestEvents.place;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.TestSessions;
import io.varve.core.event.Event;
import io.varve.core.namespace.Consistency;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A full scan of a slice table on the real test Cassandra, as the index backfill runs it: every
 * event of the time range once and whole, over several pages of rows, the next page read only once
 * the sink has taken the previous events.
 */
class CqlTableScanIT {

  static final String KEYSPACE = "cassandra_scan_it";
  static final Instant DAY = Instant.parse("2024-03-08T00:00:00Z");
  static final TimeSlice SLICE =
      new TimeSlice(
          "scan", DAY, DAY.plusSeconds(86_400), "scan_20240308", 3600, 4, SliceStatus.ACTIVE);
  static final Comparator<Event> IDENTITY =
      Comparator.comparing(Event::timeSeriesId).thenComparing(Event::newestFirst);
  static CqlSession session;
  static CqlEventStore store;
  static final List<Event> written = new ArrayList<>();

  /** A sink's call: the events handed over and the stage the scan waits for. */
  record Handed(List<Event> events, CompletableFuture<Void> taken) {}

  @BeforeAll
  static void write() {
    session = TestSessions.open();
    TestSessions.freshKeyspace(session, KEYSPACE)
        .create(KEYSPACE, SLICE.table())
        .toCompletableFuture()
        .join();
    store = new CqlEventStore(session, 16, 8L * 1024 * 1024, 4096);
    for (int i = 0; i < 1200; i++) {
      // 30 series over 20 hours: 2400 item rows, more than two pages of 1000
      written.add(
          event(
              "series-" + i % 30,
              DAY.toEpochMilli() + i * 60_000L,
              "e" + i,
              "a",
              "1-" + i,
              "b",
              "2-" + i));
    }
    assertThat(
            store
                .write(KEYSPACE, place(SLICE, written), Consistency.DEFAULT)
                .toCompletableFuture()
                .join())
        .isEmpty();
  }

  @AfterAll
  static void close() {
    session.close();
  }

  @Test
  void every_event_of_the_range_is_handed_over_once_and_whole_one_batch_at_a_time()
      throws Exception {
    long from = DAY.plusSeconds(2 * 3600).toEpochMilli();
    long to = DAY.plusSeconds(17 * 3600).toEpochMilli();
    BlockingQueue<Handed> calls = new LinkedBlockingQueue<>();

    CompletableFuture<Long> scan =
        store
            .scan(
                KEYSPACE,
                SLICE.table(),
                from,
                to,
                Consistency.DEFAULT,
                100,
                events -> {
                  CompletableFuture<Void> taken = new CompletableFuture<>();
                  calls.add(new Handed(events, taken));
                  return taken;
                })
            .toCompletableFuture();

    List<Event> received = new ArrayList<>();
    int batches = 0;
    long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
    while (!(scan.isDone() && calls.isEmpty())) {
      assertThat(System.nanoTime()).as("scan finished within 2 minutes").isLessThan(deadline);
      Handed call = calls.poll(100, TimeUnit.MILLISECONDS);
      if (call == null) {
        continue;
      }
      batches++;
      // the sink has not taken these events yet: the scan must wait, with no second batch
      assertThat(calls.poll(300, TimeUnit.MILLISECONDS)).isNull();
      assertThat(scan).isNotDone();
      received.addAll(call.events());
      call.taken().complete(null);
    }

    List<Event> expected =
        written.stream()
            .filter(e -> e.eventTimeMillis() >= from && e.eventTimeMillis() < to)
            .sorted(IDENTITY)
            .toList();
    assertThat(scan.get()).isEqualTo(expected.size());
    assertThat(received.stream().sorted(IDENTITY).toList()).containsExactlyElementsOf(expected);
    assertThat(batches).isGreaterThan(1);
  }

  @Test
  void a_range_with_no_events_hands_nothing_over() {
    List<Event> handed = new ArrayList<>();
    long count =
        store
            .scan(
                KEYSPACE,
                SLICE.table(),
                DAY.plusSeconds(23 * 3600).toEpochMilli(),
                DAY.plusSeconds(24 * 3600).toEpochMilli(),
                Consistency.DEFAULT,
                100,
                events -> {
                  handed.addAll(events);
                  return CompletableFuture.completedFuture(null);
                })
            .toCompletableFuture()
            .join();
    assertThat(count).isZero();
    assertThat(handed).isEmpty();
  }
}
