package io.varve.cassandra.metadata;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.TestSessions;
import io.varve.core.error.Causes;
import io.varve.core.error.VarveException;
import io.varve.core.partitioning.SliceLifecycle;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.NamespaceRecord;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.IntFunction;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The control plane's tables on the real test Cassandra, with two stores on two sessions standing
 * for two servers: their lightweight transactions let exactly one of concurrent creates or updates
 * of a namespace win, and the page-token key is created once.
 */
class CqlMetadataStoreIT {

  static final String KEYSPACE = "cassandra_metadata_it";
  static final int RACERS = 6;
  static CqlSession sessionA;
  static CqlSession sessionB;
  static CqlMetadataStore storeA;
  static CqlMetadataStore storeB;

  @BeforeAll
  static void open() {
    sessionA = TestSessions.open();
    sessionB = TestSessions.open();
    CqlSliceTables tables = TestSessions.freshKeyspace(sessionA, KEYSPACE);
    storeA = CqlMetadataStore.open(sessionA, KEYSPACE, tables, TestSessions.SCHEMA_TIMEOUT);
    storeB =
        CqlMetadataStore.open(
            sessionB,
            KEYSPACE,
            new CqlSliceTables(
                sessionB, TestSessions.settings().replication(), TestSessions.SCHEMA_TIMEOUT),
            TestSessions.SCHEMA_TIMEOUT);
  }

  @AfterAll
  static void close() {
    sessionA.close();
    sessionB.close();
  }

  static NamespaceRecord record(String namespace, String config, long version) {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    return new NamespaceRecord(namespace, config, version, now, now);
  }

  /** Starts {@code RACERS} calls at once, alternating between the two stores, and waits for all. */
  static <T> List<CompletableFuture<T>> race(IntFunction<CompletionStage<T>> call) {
    List<CompletableFuture<T>> calls = new ArrayList<>();
    for (int i = 0; i < RACERS; i++) {
      calls.add(call.apply(i).toCompletableFuture());
    }
    CompletableFuture.allOf(calls.toArray(CompletableFuture[]::new)).handle((v, e) -> null).join();
    return calls;
  }

  static CqlMetadataStore store(int racer) {
    return racer % 2 == 0 ? storeA : storeB;
  }

  @Test
  void concurrent_creates_of_one_namespace_let_exactly_one_win_and_the_others_see_it_exists() {
    List<CompletableFuture<Void>> creates =
        race(i -> store(i).create(record("raced_create", "{\"racer\": " + i + "}", 1)));

    List<Integer> winners = new ArrayList<>();
    for (int i = 0; i < RACERS; i++) {
      if (!creates.get(i).isCompletedExceptionally()) {
        winners.add(i);
        continue;
      }
      Throwable failure = Causes.unwrap(creates.get(i).handle((v, e) -> e).join());
      assertThat(failure).isInstanceOf(VarveException.class);
      assertThat(((VarveException) failure).kind()).isEqualTo(VarveException.Kind.ALREADY_EXISTS);
    }
    assertThat(winners).hasSize(1);
    NamespaceRecord stored = storeB.get("raced_create").toCompletableFuture().join().orElseThrow();
    assertThat(stored.configJson()).isEqualTo("{\"racer\": " + winners.get(0) + "}");
    assertThat(stored.version()).isEqualTo(1);
  }

  @Test
  void concurrent_updates_of_one_version_let_exactly_one_win_and_a_stale_version_loses() {
    storeA.create(record("raced_update", "{}", 1)).toCompletableFuture().join();

    List<CompletableFuture<Boolean>> updates =
        race(i -> store(i).update(record("raced_update", "{\"racer\": " + i + "}", 2)));

    List<Integer> winners = new ArrayList<>();
    for (int i = 0; i < RACERS; i++) {
      if (updates.get(i).join()) {
        winners.add(i);
      }
    }
    assertThat(winners).hasSize(1);
    NamespaceRecord stored = storeA.get("raced_update").toCompletableFuture().join().orElseThrow();
    assertThat(stored.version()).isEqualTo(2);
    assertThat(stored.configJson()).isEqualTo("{\"racer\": " + winners.get(0) + "}");
    assertThat(
            storeB
                .update(record("raced_update", "{\"late\": true}", 2))
                .toCompletableFuture()
                .join())
        .isFalse();
    assertThat(
            storeB
                .update(record("raced_update", "{\"next\": true}", 3))
                .toCompletableFuture()
                .join())
        .isTrue();
  }

  @Test
  void an_update_of_a_namespace_that_does_not_exist_does_not_create_it() {
    assertThat(storeA.update(record("never_created", "{}", 2)).toCompletableFuture().join())
        .isFalse();
    assertThat(storeA.get("never_created").toCompletableFuture().join()).isEmpty();
  }

  @Test
  void namespaces_are_listed_by_name() {
    for (String name : List.of("list_c", "list_a", "list_b")) {
      storeA.create(record(name, "{}", 1)).toCompletableFuture().join();
    }
    List<String> names =
        storeB.list().toCompletableFuture().join().stream()
            .map(NamespaceRecord::namespace)
            .filter(n -> n.startsWith("list_"))
            .toList();
    assertThat(names).containsExactly("list_a", "list_b", "list_c");
  }

  @Test
  void slices_are_listed_newest_first_with_their_settings_and_status() {
    Instant day = Instant.parse("2024-03-08T00:00:00Z");
    List<String> names = List.of("sliced_20240308", "sliced_20240309", "sliced_20240310");
    for (int d = 0; d < 3; d++) {
      Instant start = day.plus(d, ChronoUnit.DAYS);
      storeA
          .putSlice(
              new TimeSlice(
                  "sliced",
                  start,
                  start.plus(1, ChronoUnit.DAYS),
                  names.get(d),
                  3600,
                  4,
                  SliceStatus.ACTIVE))
          .toCompletableFuture()
          .join();
    }
    TimeSlice oldest = storeB.slices("sliced").toCompletableFuture().join().get(2);
    Instant closedAt = Instant.parse("2024-03-12T00:00:00Z");
    assertThat(
            storeB
                .setSliceStatus(oldest, SliceStatus.CLOSED, closedAt)
                .toCompletableFuture()
                .join())
        .isTrue();

    List<TimeSlice> slices = storeA.slices("sliced").toCompletableFuture().join();

    assertThat(slices)
        .extracting(TimeSlice::table)
        .containsExactly("sliced_20240310", "sliced_20240309", "sliced_20240308");
    assertThat(slices)
        .extracting(TimeSlice::status)
        .containsExactly(SliceStatus.ACTIVE, SliceStatus.ACTIVE, SliceStatus.CLOSED);
    assertThat(slices.get(2).lifecycle().statusTime()).contains(closedAt);
    assertThat(slices.get(0))
        .isEqualTo(
            new TimeSlice(
                "sliced",
                day.plus(2, ChronoUnit.DAYS),
                day.plus(3, ChronoUnit.DAYS),
                "sliced_20240310",
                3600,
                4,
                SliceStatus.ACTIVE));
    assertThat(storeA.slices("no_such_namespace").toCompletableFuture().join()).isEmpty();
  }

  @Test
  void concurrent_moves_of_one_slice_from_the_status_both_read_let_exactly_one_win() {
    Instant start = Instant.parse("2024-05-01T00:00:00Z");
    TimeSlice slice =
        new TimeSlice(
            "moved",
            start,
            start.plus(1, ChronoUnit.DAYS),
            "moved_0501",
            3600,
            1,
            SliceStatus.CLOSED);
    storeA.putSlice(slice).toCompletableFuture().join();
    Instant at = Instant.parse("2024-05-09T00:00:00Z");

    // one server reopens it (close_after raised) while another starts dropping it
    List<CompletableFuture<Boolean>> moves =
        race(
            i ->
                store(i)
                    .setSliceStatus(
                        slice, i % 2 == 0 ? SliceStatus.ACTIVE : SliceStatus.DELETING, at));

    assertThat(moves.stream().filter(CompletableFuture::join).count()).isEqualTo(1);
    SliceStatus stored = storeB.slices("moved").toCompletableFuture().join().get(0).status();
    assertThat(stored).isIn(SliceStatus.ACTIVE, SliceStatus.DELETING);
    assertThat(storeA.setSliceStatus(slice, SliceStatus.ACTIVE, at).toCompletableFuture().join())
        .as("a move from a status the slice has left is refused")
        .isFalse();
  }

  @Test
  void a_slice_table_of_an_earlier_version_gains_the_lifecycle_columns_at_open() {
    String keyspace = "cassandra_metadata_old_it";
    CqlSliceTables tables = TestSessions.freshKeyspace(sessionA, keyspace);
    sessionA.execute(
        "CREATE TABLE "
            + keyspace
            + ".time_slices (namespace text, start_time timestamp, end_time timestamp,"
            + " table_name text, seconds_per_time_bucket bigint, event_buckets int, status text,"
            + " PRIMARY KEY (namespace, start_time)) WITH CLUSTERING ORDER BY (start_time DESC)");
    Instant start = Instant.parse("2024-03-08T00:00:00Z");
    sessionA.execute(
        "INSERT INTO "
            + keyspace
            + ".time_slices (namespace, start_time, end_time, table_name,"
            + " seconds_per_time_bucket, event_buckets, status)"
            + " VALUES ('old', '2024-03-08T00:00:00Z', '2024-03-09T00:00:00Z', 'old_0308', 3600, 2,"
            + " 'CLOSED')");

    CqlMetadataStore opened =
        CqlMetadataStore.open(sessionA, keyspace, tables, TestSessions.SCHEMA_TIMEOUT);
    CqlMetadataStore again =
        CqlMetadataStore.open(sessionB, keyspace, tables, TestSessions.SCHEMA_TIMEOUT);

    TimeSlice old = opened.slices("old").toCompletableFuture().join().get(0);
    assertThat(old.start()).isEqualTo(start);
    assertThat(old.status()).isEqualTo(SliceStatus.CLOSED);
    assertThat(old.lifecycle()).isEqualTo(SliceLifecycle.NONE);
    Instant at = Instant.parse("2024-03-20T00:00:00Z");
    assertThat(again.setSliceStatus(old, SliceStatus.ACTIVE, at).toCompletableFuture().join())
        .isTrue();
    assertThat(opened.slices("old").toCompletableFuture().join().get(0).lifecycle().statusTime())
        .contains(at);
  }

  @Test
  void the_page_token_key_is_created_once_by_whichever_server_asks_first() {
    List<CompletableFuture<byte[]>> keys = race(i -> store(i).pageTokenKey());

    byte[] first = keys.get(0).join();
    assertThat(first).hasSize(32);
    for (CompletableFuture<byte[]> key : keys) {
      assertThat(key.join()).isEqualTo(first);
    }
    assertThat(storeB.pageTokenKey().toCompletableFuture().join()).isEqualTo(first);
  }
}
