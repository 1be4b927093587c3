package io.varve.cassandra.events;

import static io.varve.cassandra.events.TestEvents.partition;
import static io.varve.cassandra.events.TestEvents.place;
import static io.varve.cassandra.events.TestEvents.utf8;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.config.DriverExecutionProfile;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.session.Request;
import com.datastax.oss.driver.api.core.tracker.RequestTracker;
import io.varve.cassandra.TestSessions;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.cassandra.session.Sessions;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.namespace.Consistency;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.BucketScan;
import io.varve.core.read.Cursor;
import io.varve.core.read.PartitionRead;
import io.varve.core.read.PartitionScan;
import io.varve.core.read.ReadBytes;
import io.varve.core.read.ResponseMemory;
import io.varve.core.read.ScanBudget;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Partitions of large events read on the real test Cassandra: a fetch asks for as many rows as make
 * about {@link RowSizes#FETCH_BYTES}, not a count of rows that with items of MiBs would make the
 * node hold hundreds of MiB to answer one page (concurrent reads of such pages brought a node of 1
 * GiB heap down), while partitions of small events are still read in one fetch; the events kept
 * fill the read's {@link ReadBytes}, which cuts the read once full.
 */
class CqlLargeEventReadIT {

  static final String KEYSPACE = "cassandra_large_read_it";
  static final Instant DAY = Instant.parse("2024-03-08T00:00:00Z");
  static final TimeSlice LARGE = slice("large_20240308");
  static final TimeSlice SMALL = slice("small_20240308");
  static final long HOUR = DAY.plusSeconds(7200).toEpochMilli();
  static final int ITEM_BYTES = 1 << 20;
  static final int LARGE_EVENTS = 10;
  static final int SMALL_EVENTS = 300;

  /** The page size of each SELECT sent, with the table it read. */
  record Fetch(String query, int pageSize) {}

  static final List<Fetch> fetches = new CopyOnWriteArrayList<>();
  static CqlSession session;
  static CqlEventStore writer;

  /** The large partition's events, newest first. */
  static final List<Event> large = new ArrayList<>();

  static TimeSlice slice(String table) {
    return new TimeSlice("large", DAY, DAY.plusSeconds(86_400), table, 3600, 1, SliceStatus.ACTIVE);
  }

  @BeforeAll
  static void write() {
    RequestTracker tracker =
        new RequestTracker() {
          @Override
          public void onSuccess(
              Request request,
              long latencyNanos,
              DriverExecutionProfile profile,
              Node node,
              String prefix) {
            String query =
                request instanceof BoundStatement bound
                    ? bound.getPreparedStatement().getQuery()
                    : request instanceof SimpleStatement simple ? simple.getQuery() : "";
            if (query.startsWith("SELECT")) {
              fetches.add(new Fetch(query, ((Statement<?>) request).getPageSize()));
            }
          }

          @Override
          public void close() {}
        };
    session = Sessions.open(TestSessions.settings(), List.of(tracker)).toCompletableFuture().join();
    CqlSliceTables tables = TestSessions.freshKeyspace(session, KEYSPACE);
    tables.create(KEYSPACE, LARGE.table()).toCompletableFuture().join();
    tables.create(KEYSPACE, SMALL.table()).toCompletableFuture().join();
    writer = new CqlEventStore(session, 16, 64L << 20, 4096);
    Random random = new Random(7);
    List<Event> events = new ArrayList<>();
    for (int i = 0; i < LARGE_EVENTS; i++) {
      List<EventItem> items = new ArrayList<>();
      for (String key : List.of("a", "b", "c")) {
        byte[] value = new byte[ITEM_BYTES];
        random.nextBytes(value); // incompressible: stored at its full size
        items.add(new EventItem(utf8(key), value));
      }
      events.add(new Event("large", HOUR + 1000L * i, "e" + i, items));
    }
    assertThat(write(LARGE, events)).isEmpty();
    events.stream().sorted(Event::newestFirst).forEach(large::add);
    List<Event> small = new ArrayList<>();
    for (int i = 0; i < SMALL_EVENTS; i++) {
      small.add(TestEvents.event("small", HOUR + i, "s" + i, "k", "v" + i));
    }
    assertThat(write(SMALL, small)).isEmpty();
  }

  static java.util.Map<Integer, VarveException> write(TimeSlice slice, List<Event> events) {
    return writer
        .write(KEYSPACE, place(slice, events), Consistency.DEFAULT)
        .toCompletableFuture()
        .join();
  }

  @AfterAll
  static void close() {
    session.close();
  }

  @BeforeEach
  void clearFetches() {
    settle(); // the driver may still tell of an earlier test's last fetches
    fetches.clear();
  }

  static PartitionRead read(
      CqlEventStore store, TimeSlice slice, String series, Cursor cursor, int max, ReadBytes b) {
    PartitionScan whole = partition(slice, HOUR, 0);
    BucketScan bucket = whole.bucket();
    // as the read planner narrows a page after a cursor: to the cursor's millisecond
    PartitionScan scan =
        cursor == null
            ? whole
            : new PartitionScan(
                new BucketScan(
                    bucket.table(),
                    bucket.timeBucketMillis(),
                    bucket.eventBuckets(),
                    bucket.fromMillis(),
                    cursor.eventTimeMillis() + 1),
                0);
    return store
        .reader(KEYSPACE, series, Consistency.DEFAULT, ScanBudget.NONE, b)
        .read(scan, cursor, List.of(), max)
        .toCompletableFuture()
        .join();
  }

  /**
   * The page sizes of the SELECTs of {@code slice}'s table sent so far. The driver tells its
   * trackers of a request's success after the request's future completes: waits until no new one
   * came for 300 ms.
   */
  static List<Integer> pageSizes(TimeSlice slice) {
    settle();
    return fetches.stream()
        .filter(f -> f.query().contains(slice.table()))
        .map(Fetch::pageSize)
        .toList();
  }

  /** Waits until the tracker was told of no new fetch for 300 ms (at most 10 s). */
  static void settle() {
    long deadline = System.nanoTime() + 10_000_000_000L;
    int seen = -1;
    while (fetches.size() != seen && System.nanoTime() < deadline) {
      seen = fetches.size();
      try {
        Thread.sleep(300);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      }
    }
  }

  @Test
  void a_store_that_never_saw_the_table_asks_for_a_few_rows_then_for_what_makes_4_mib() {
    CqlEventStore cold = new CqlEventStore(session, 16, 64L << 20, 4096);

    PartitionRead read = read(cold, LARGE, "large", null, LARGE_EVENTS, ReadBytes.unlimited());

    assertThat(read.events()).isEqualTo(large);
    assertThat(read.cut()).isFalse();
    // 30 rows of 1 MiB: a page of 21 rows (2 * 10 + 1) would have been 21 MiB for the node to hold
    assertThat(pageSizes(LARGE))
        .as("rows asked per fetch")
        .startsWith((int) (RowSizes.FETCH_BYTES / RowSizes.UNKNOWN_ROW_BYTES))
        .allSatisfy(rows -> assertThat(rows).isLessThanOrEqualTo(4))
        .hasSizeGreaterThanOrEqualTo(30 / 4);
  }

  @Test
  void a_store_that_wrote_the_large_rows_asks_for_three_of_them_from_the_first_fetch() {
    PartitionRead read = read(writer, LARGE, "large", null, 4, ReadBytes.unlimited());

    assertThat(read.events()).isEqualTo(large.subList(0, 4));
    assertThat(pageSizes(LARGE)).isNotEmpty().allSatisfy(rows -> assertThat(rows).isEqualTo(3));
  }

  @Test
  void a_store_that_never_saw_a_table_of_small_rows_asks_for_four_rows_then_for_the_rest() {
    CqlEventStore cold = new CqlEventStore(session, 16, 64L << 20, 4096);

    PartitionRead read = read(cold, SMALL, "small", null, 100, ReadBytes.unlimited());

    assertThat(read.events()).hasSize(100);
    assertThat(pageSizes(SMALL)).containsExactly(4, 201);
  }

  @Test
  void small_events_are_still_read_in_one_fetch_of_twice_the_events_wanted() {
    PartitionRead read = read(writer, SMALL, "small", null, 100, ReadBytes.unlimited());

    assertThat(read.events()).hasSize(100);
    assertThat(read.events().get(0).eventId()).isEqualTo("s" + (SMALL_EVENTS - 1));
    assertThat(pageSizes(SMALL)).containsExactly(201);
  }

  @Test
  void a_table_scan_of_large_rows_asks_for_a_few_at_a_time_and_hands_every_event_whole() {
    CqlEventStore cold = new CqlEventStore(session, 16, 64L << 20, 4096);
    List<Event> handed = new CopyOnWriteArrayList<>();

    long count =
        cold.scan(
                KEYSPACE,
                LARGE.table(),
                DAY.toEpochMilli(),
                DAY.plusSeconds(86_400).toEpochMilli(),
                Consistency.DEFAULT,
                4,
                batch -> {
                  handed.addAll(batch);
                  return java.util.concurrent.CompletableFuture.completedFuture(null);
                })
            .toCompletableFuture()
            .join();

    assertThat(count).isEqualTo(LARGE_EVENTS);
    assertThat(handed).containsExactlyInAnyOrderElementsOf(large);
    // a scan of a table of small rows asks for 1000 at a time
    assertThat(pageSizes(LARGE)).isNotEmpty().allSatisfy(rows -> assertThat(rows).isLessThan(5));
  }

  @Test
  void a_full_read_stops_after_the_event_that_filled_it_and_goes_on_from_there() {
    List<Event> all = new ArrayList<>();
    Cursor cursor = null;
    int reads = 0;
    while (true) {
      // less than one event's 3 MiB: each read keeps one event and is cut
      ReadBytes bytes = new ReadBytes(2 * ITEM_BYTES, ResponseMemory.UNBOUNDED);
      PartitionRead read = read(writer, LARGE, "large", cursor, LARGE_EVENTS, bytes);
      reads++;
      all.addAll(read.events());
      if (!read.cut()) {
        break;
      }
      assertThat(read.events()).hasSize(1);
      assertThat(bytes.kept()).isEqualTo(3L * (ITEM_BYTES + 1));
      cursor = Cursor.after(read.events().get(0));
    }

    assertThat(all).isEqualTo(large);
    assertThat(reads).isEqualTo(LARGE_EVENTS);
  }

  @Test
  void a_read_the_server_has_no_memory_for_fails_as_overload() {
    AtomicLong held = new AtomicLong();
    ReadBytes bytes =
        ReadBytes.unlimited(
            b -> {
              if (held.addAndGet(b) > 5L * ITEM_BYTES) {
                throw new VarveException(
                    VarveException.Kind.RESOURCE_EXHAUSTED, "no room for " + b + " bytes");
              }
            });

    assertThatThrownBy(() -> read(writer, LARGE, "large", null, LARGE_EVENTS, bytes))
        .isInstanceOf(CompletionException.class)
        .cause()
        .isInstanceOfSatisfying(
            VarveException.class,
            e -> assertThat(e.kind()).isEqualTo(VarveException.Kind.RESOURCE_EXHAUSTED));
  }
}
