package io.varve.cassandra.events;

import static io.varve.cassandra.events.TestEvents.event;
import static io.varve.cassandra.events.TestEvents.partition;
import static io.varve.cassandra.events.TestEvents.place;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.cassandra.TestSessions;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.core.error.StorageException;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.namespace.Consistency;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.Cursor;
import io.varve.core.read.PartitionRead;
import io.varve.core.read.ReadPlanner;
import io.varve.core.read.ScatterGather;
import io.varve.format.ValueCodec;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The event store on the real test Cassandra: writes in packed batches read back through core's
 * read planner across time and event buckets, values compressed and decoded as stored, and the
 * failures of a slice table dropped behind the store's back.
 */
class CqlEventStoreIT {

  static final String KEYSPACE = "cassandra_events_it";
  static final Instant DAY = Instant.parse("2024-03-08T00:00:00Z");
  static final TimeSlice SLICE =
      new TimeSlice(
          "events", DAY, DAY.plusSeconds(86_400), "events_20240308", 3600, 4, SliceStatus.ACTIVE);
  static final TimeSlice DROPPED =
      new TimeSlice(
          "events", DAY, DAY.plusSeconds(86_400), "dropped_20240308", 3600, 2, SliceStatus.ACTIVE);
  static CqlSession session;
  static CqlEventStore store;

  @BeforeAll
  static void open() {
    session = TestSessions.open();
    CqlSliceTables tables = TestSessions.freshKeyspace(session, KEYSPACE);
    tables.create(KEYSPACE, SLICE.table()).toCompletableFuture().join();
    tables.create(KEYSPACE, DROPPED.table()).toCompletableFuture().join();
    store = new CqlEventStore(session, 16, 8L * 1024 * 1024, 1024);
  }

  @AfterAll
  static void close() {
    session.close();
  }

  static Map<Integer, VarveException> write(TimeSlice slice, List<Event> events) {
    return store
        .write(KEYSPACE, place(slice, events), Consistency.DEFAULT)
        .toCompletableFuture()
        .join();
  }

  /**
   * Every event of {@code series} in [from, to), page by page through the planner, as the server
   * reads.
   */
  static List<Event> readAll(String series, long from, long to, int pageSize) {
    List<Event> all = new ArrayList<>();
    Cursor cursor = null;
    while (true) {
      List<Event> page =
          ScatterGather.run(
                  store.reader(KEYSPACE, series, Consistency.DEFAULT),
                  ReadPlanner.plan(List.of(SLICE), from, to, cursor, 1000),
                  cursor,
                  List.of(),
                  pageSize + 1,
                  3)
              .toCompletableFuture()
              .join()
              .events();
      all.addAll(page.subList(0, Math.min(pageSize, page.size())));
      if (page.size() <= pageSize) {
        return all;
      }
      cursor = Cursor.after(page.get(pageSize - 1));
    }
  }

  @Test
  void events_written_in_packed_batches_read_back_newest_first_across_time_and_event_buckets() {
    List<Event> events = new ArrayList<>();
    long start = DAY.plusSeconds(3600).toEpochMilli();
    for (int i = 0; i < 240; i++) {
      String series = i % 3 == 0 ? "other" : "series";
      // 6 time buckets, every fifth event sharing its millisecond with the one before
      long time = start + (i - i / 5) * 90_000L;
      String[] items =
          i % 4 == 0 ? new String[] {"k", "v" + i} : new String[] {"k", "v" + i, "n", "#" + i};
      events.add(event(series, time, "e" + i, items));
    }

    assertThat(write(SLICE, events)).isEmpty();

    long from = start;
    long to = start + 6 * 3_600_000L;
    List<Event> expected =
        events.stream()
            .filter(e -> e.timeSeriesId().equals("series"))
            .sorted(Event::newestFirst)
            .toList();
    assertThat(readAll("series", from, to, 7)).containsExactlyElementsOf(expected);
    assertThat(readAll("series", from, to, 500)).containsExactlyElementsOf(expected);
    assertThat(readAll("other", from, to, 50)).hasSize(80);
  }

  @Test
  void
      two_versions_of_a_row_in_one_write_store_the_last_whole_never_one_value_with_the_others_marker() {
    long time = DAY.plusSeconds(21 * 3600).toEpochMilli();
    String large = "a compressible value ".repeat(5000);
    // as the buffer coalesces two requests: a compressed version, then a plain one of the same item
    List<Event> versions =
        List.of(
            event("versions", time, "e1", "k", large, "other", "first"),
            event("versions", time, "e1", "k", "x"));
    assertThat(write(SLICE, versions)).isEmpty();

    Row stored = storedItem("versions", time, "e1");
    assertThat(stored.getString("value_metadata")).isEqualTo(ValueCodec.NONE);
    assertThat(readAll("versions", time, time + 1, 10))
        .as("the last version's item, the first version's other item")
        .containsExactly(event("versions", time, "e1", "k", "x", "other", "first"));

    // and the other way round: the compressed version last
    assertThat(
            write(
                SLICE,
                List.of(
                    event("versions", time, "e2", "k", "x"),
                    event("versions", time, "e2", "k", large))))
        .isEmpty();
    assertThat(readAll("versions", time, time + 1, 10))
        .contains(event("versions", time, "e2", "k", large));
  }

  @Test
  void large_values_are_stored_compressed_and_an_overwrite_by_a_plain_value_clears_the_marker() {
    long time = DAY.plusSeconds(20 * 3600).toEpochMilli();
    String large = "a compressible value ".repeat(5000);
    assertThat(write(SLICE, List.of(event("codec", time, "e1", "big", large)))).isEmpty();

    Row stored = storedItem("codec", time, "e1");
    assertThat(stored.getString("value_metadata")).isEqualTo(ValueCodec.ZSTD);
    assertThat(stored.getByteBuffer("event_item_value").remaining())
        .isLessThan(large.length() / 10);
    assertThat(readAll("codec", time, time + 1, 10))
        .containsExactly(event("codec", time, "e1", "big", large));

    assertThat(write(SLICE, List.of(event("codec", time, "e1", "big", "small now")))).isEmpty();

    assertThat(storedItem("codec", time, "e1").getString("value_metadata"))
        .isEqualTo(ValueCodec.NONE);
    assertThat(readAll("codec", time, time + 1, 10))
        .containsExactly(event("codec", time, "e1", "big", "small now"));
  }

  @Test
  void
      a_marker_older_than_its_value_is_ignored_and_a_current_one_on_plain_bytes_fails_the_read_naming_the_event() {
    long time = DAY.plusSeconds(21 * 3600).toEpochMilli();
    String insert =
        "INSERT INTO "
            + KEYSPACE
            + "."
            + SLICE.table()
            + " (time_series_id, time_bucket, event_bucket,"
            + " event_time, event_id, event_item_key, %s) VALUES ('stale', %d, %d, %d, '%s', 0x6b, %s) USING TIMESTAMP %d";
    int staleBucket = EventBuckets.of("stale", time, "old-marker", 4);
    session.execute(
        insert.formatted(
            "event_item_value",
            SLICE.timeBucketOf(time),
            staleBucket,
            time,
            "old-marker",
            "textAsBlob('plain')",
            2000));
    session.execute(
        insert.formatted(
            "value_metadata",
            SLICE.timeBucketOf(time),
            staleBucket,
            time,
            "old-marker",
            "'" + ValueCodec.ZSTD + "'",
            1000));

    assertThat(readAll("stale", time, time + 1, 10))
        .containsExactly(event("stale", time, "old-marker", "k", "plain"));

    int corruptBucket = EventBuckets.of("stale", time + 1, "corrupt", 4);
    session.execute(
        insert.formatted(
            "event_item_value",
            SLICE.timeBucketOf(time),
            corruptBucket,
            time + 1,
            "corrupt",
            "textAsBlob('plain')",
            3000));
    session.execute(
        insert.formatted(
            "value_metadata",
            SLICE.timeBucketOf(time),
            corruptBucket,
            time + 1,
            "corrupt",
            "'" + ValueCodec.ZSTD + "'",
            4000)); // newer than the value: no version of a batch, a marker on plain bytes

    assertThatThrownBy(
            () ->
                store
                    .reader(KEYSPACE, "stale", Consistency.DEFAULT)
                    .read(partition(SLICE, time, corruptBucket), null, List.of(), 10)
                    .toCompletableFuture()
                    .join())
        .cause()
        .isInstanceOfSatisfying(
            VarveException.class,
            e -> {
              assertThat(e.kind()).isEqualTo(VarveException.Kind.INTERNAL);
              assertThat(e.getMessage())
                  .contains("timeSeriesId=stale", "eventId=corrupt", "not a zstd frame");
            });
  }

  @Test
  void
      a_slice_table_dropped_behind_the_stores_back_fails_each_event_and_read_as_refused_not_retryable() {
    long time = DAY.plusSeconds(3 * 3600).toEpochMilli();
    assertThat(write(DROPPED, List.of(event("gone", time, "before", "k", "v")))).isEmpty();
    session.execute(
        SimpleStatement.newInstance("DROP TABLE " + KEYSPACE + "." + DROPPED.table())
            .setTimeout(TestSessions.SCHEMA_TIMEOUT));

    Map<Integer, VarveException> failures =
        write(
            DROPPED,
            List.of(
                event("gone", time, "a", "k", "v"),
                event("gone", time + 1, "b", "k", "v"),
                event("elsewhere", time + 3_600_000, "c", "k", "v")));

    assertThat(failures).containsOnlyKeys(0, 1, 2);
    assertThat(failures.values())
        .allSatisfy(
            failure -> {
              assertThat(failure).isInstanceOf(StorageException.class);
              assertThat(((StorageException) failure).reason())
                  .isEqualTo(StorageException.Reason.REFUSED);
              assertThat(((StorageException) failure).retryable()).isFalse();
              assertThat(failure.kind()).isEqualTo(VarveException.Kind.FAILED_PRECONDITION);
              assertThat(failure.getMessage()).contains(DROPPED.table());
            });
    CompletableFuture<PartitionRead> read =
        store
            .reader(KEYSPACE, "gone", Consistency.DEFAULT)
            .read(partition(DROPPED, time, 0), null, List.of(), 10)
            .toCompletableFuture();
    assertThatThrownBy(read::join)
        .cause()
        .isInstanceOfSatisfying(
            StorageException.class,
            e -> assertThat(e.reason()).isEqualTo(StorageException.Reason.REFUSED));
    CompletableFuture<Long> scan =
        store
            .scan(
                KEYSPACE,
                DROPPED.table(),
                0,
                Long.MAX_VALUE,
                Consistency.DEFAULT,
                10,
                batch -> CompletableFuture.completedFuture(null))
            .toCompletableFuture();
    assertThatThrownBy(scan::join)
        .cause()
        .isInstanceOfSatisfying(
            StorageException.class,
            e -> assertThat(e.reason()).isEqualTo(StorageException.Reason.REFUSED));
  }

  private static Row storedItem(String series, long time, String id) {
    int bucket = EventBuckets.of(series, time, id, SLICE.eventBuckets());
    return session
        .execute(
            SimpleStatement.newInstance(
                "SELECT event_item_value, value_metadata FROM "
                    + KEYSPACE
                    + "."
                    + SLICE.table()
                    + " WHERE time_series_id = ? AND time_bucket = ? AND event_bucket = ?"
                    + " AND event_time = ? AND event_id = ?",
                series,
                Instant.ofEpochMilli(SLICE.timeBucketOf(time)),
                bucket,
                Instant.ofEpochMilli(time),
                id))
        .one();
  }
}
