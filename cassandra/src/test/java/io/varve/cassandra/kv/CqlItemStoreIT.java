package io.varve.cassandra.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.cassandra.TestSessions;
import io.varve.cassandra.session.Sessions;
import io.varve.core.error.Causes;
import io.varve.core.error.StorageException;
import io.varve.core.error.VarveException;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.ChunkSweep;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPage;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.RecordMutation;
import io.varve.core.kv.ScanPage;
import io.varve.core.kv.ScanPosition;
import io.varve.core.kv.ScanSegment;
import io.varve.core.kv.ScannedItem;
import io.varve.core.limit.AsyncLimiter;
import io.varve.core.namespace.Consistency;
import io.varve.core.read.ResponseMemory;
import io.varve.format.ItemTable;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The KeyValue item store on the real test Cassandra, through core's {@code ItemStore} contract as
 * the server uses it: writes ordered by their token's generation time whatever order they arrive
 * in, reads and scans in the namespace's clustering order and within their page bounds, values over
 * the chunk threshold stored in chunks and read back whole, the chunk sweep removing what no item
 * refers to any more, and a dropped table answered as a refusal of the store, never as the driver's
 * exception.
 */
class CqlItemStoreIT {

  static final String KEYSPACE = "cassandra_item_store_it";

  /** Small chunks, so that a chunked value is a few KiB here. */
  static final KvChunking CHUNKS =
      new KvChunking(
          4096,
          1024,
          1 << 20,
          4,
          Duration.ofSeconds(30),
          Duration.ofMinutes(15),
          Duration.ofHours(1),
          500);

  static final AtomicLong micros = new AtomicLong(Instant.now().toEpochMilli() * 1000);
  static CqlSession session;
  static CqlItemStore store;
  static CqlChunkLog log;
  static CqlItemTables tables;

  @BeforeAll
  static void start() {
    session = Sessions.open(TestSessions.settings(), List.of()).toCompletableFuture().join();
    TestSessions.freshKeyspace(session, KEYSPACE);
    tables = new CqlItemTables(session, Duration.ofSeconds(30));
    log = CqlChunkLog.open(session, KEYSPACE, Duration.ofSeconds(30));
    store =
        new CqlItemStore(
            new CqlItemWriter(
                session,
                new AsyncLimiter("cassandra_writes", 64, 64L << 20),
                4096,
                CHUNKS,
                log,
                Clock.systemUTC()),
            new CqlItemReader(session, KvLimits.DEFAULT, 4));
  }

  @AfterAll
  static void close() {
    if (session != null) {
      session.close();
    }
  }

  static KvNamespace namespace(String table, ClusteringOrder order) {
    KvNamespace ns =
        new KvNamespace(table, KEYSPACE, table, order, Consistency.DEFAULT, Optional.empty());
    join(tables.create(ns));
    return ns;
  }

  /** A token generated a microsecond after the previous one. */
  static IdempotencyToken token() {
    return new IdempotencyToken(micros.addAndGet(1), UUID.randomUUID().toString());
  }

  static <T> T join(CompletionStage<T> stage) {
    return Causes.join(stage);
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static String s(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }

  static KvItem item(String key, String value) {
    return KvItem.of(b(key), b(value));
  }

  static void put(KvNamespace ns, String id, IdempotencyToken token, KvItem... items) {
    join(store.put(ns, id, token, List.of(items)));
  }

  /** One page of values of at most {@code pageBytes}, as GetItems reads it. */
  static ItemPage page(KvNamespace ns, String id, ItemPredicate predicate, int pageBytes) {
    return join(
        store.read(
            ns,
            id,
            predicate,
            true,
            100,
            100,
            new BytePage(pageBytes, Long.MAX_VALUE),
            false,
            ReadBudget.NONE,
            ResponseMemory.UNBOUNDED));
  }

  /** Every item of the predicate, page after page of at most {@code pageBytes}. */
  static List<KvItem> read(KvNamespace ns, String id, ItemPredicate predicate, int pageBytes) {
    List<KvItem> items = new ArrayList<>();
    ItemPredicate rest = predicate;
    for (int pages = 0; pages < 10_000; pages++) {
      ItemPage page = page(ns, id, rest, pageBytes);
      items.addAll(page.items());
      if (!page.more()) {
        return items;
      }
      rest = rest.after(page.items().get(page.items().size() - 1).key(), ns.order());
    }
    throw new AssertionError("no end to the pages");
  }

  static List<String> keys(List<KvItem> items) {
    return items.stream().map(i -> s(i.key())).toList();
  }

  static List<String> values(List<KvItem> items) {
    return items.stream().map(i -> s(i.value())).toList();
  }

  static ItemPredicate.Keys keysOf(String... keys) {
    return new ItemPredicate.Keys(Arrays.stream(keys).map(CqlItemStoreIT::b).toList());
  }

  @Test
  void items_come_back_in_the_namespaces_clustering_order_in_pages_within_their_bytes() {
    KvNamespace asc = namespace("items_asc", ClusteringOrder.ASC);
    KvNamespace desc = namespace("items_desc", ClusteringOrder.DESC);
    List<KvItem> items = new ArrayList<>();
    for (int i = 0; i < 50; i++) {
      items.add(item(String.format("k%02d", i), "v".repeat(100) + i));
    }
    for (KvNamespace ns : List.of(asc, desc)) {
      join(store.put(ns, "r", token(), items));
    }

    List<KvItem> ascending = read(asc, "r", new ItemPredicate.All(), 1000);
    List<KvItem> descending = read(desc, "r", new ItemPredicate.All(), 1000);

    assertThat(keys(ascending)).isEqualTo(keys(items));
    List<String> reversed = new ArrayList<>(keys(items));
    java.util.Collections.reverse(reversed);
    assertThat(keys(descending)).isEqualTo(reversed);
    assertThat(values(ascending)).isEqualTo(values(items));
    ItemPage first = page(asc, "r", new ItemPredicate.All(), 1000);
    assertThat(first.more()).isTrue();
    assertThat(first.bytes()).isLessThanOrEqualTo(1000);
    assertThat(keys(read(asc, "r", keysOf("k07", "k03", "zz"), 1 << 20)))
        .as("listed keys, the absent one left out")
        .containsExactly("k03", "k07");
    assertThat(
            keys(
                read(
                    asc,
                    "r",
                    new ItemPredicate.Range(
                        new KeyRange(Optional.of(b("k10")), true, Optional.of(b("k13")), false)),
                    1 << 20)))
        .containsExactly("k10", "k11", "k12");
  }

  @Test
  void the_write_with_the_later_generation_time_wins_whatever_order_they_arrive_in() {
    KvNamespace ns = namespace("items_order", ClusteringOrder.ASC);
    IdempotencyToken earlier = token();
    IdempotencyToken later = token();

    put(ns, "r", later, item("a", "new"));
    put(ns, "r", earlier, item("a", "old"));
    assertThat(values(read(ns, "r", keysOf("a"), 1 << 20))).containsExactly("new");

    IdempotencyToken delete = token();
    IdempotencyToken beforeTheDelete = new IdempotencyToken(delete.generationMicros() - 1, "x");
    join(store.delete(ns, "r", delete, keysOf("a")));
    put(ns, "r", beforeTheDelete, item("a", "late but older"));
    assertThat(read(ns, "r", keysOf("a"), 1 << 20)).as("hidden by the newer delete").isEmpty();
    put(ns, "r", token(), item("a", "after"));
    assertThat(values(read(ns, "r", keysOf("a"), 1 << 20))).containsExactly("after");
  }

  @Test
  void deletes_by_keys_range_and_record_remove_what_they_address_only() {
    KvNamespace ns = namespace("items_delete", ClusteringOrder.ASC);
    put(ns, "r", token(), item("a", "1"), item("b", "2"), item("c", "3"), item("d", "4"));
    put(ns, "other", token(), item("a", "kept"));

    join(store.delete(ns, "r", token(), keysOf("a")));
    assertThat(keys(read(ns, "r", new ItemPredicate.All(), 1 << 20)))
        .containsExactly("b", "c", "d");
    join(
        store.delete(
            ns,
            "r",
            token(),
            new ItemPredicate.Range(
                new KeyRange(Optional.of(b("b")), true, Optional.of(b("c")), true))));
    assertThat(keys(read(ns, "r", new ItemPredicate.All(), 1 << 20))).containsExactly("d");
    join(store.delete(ns, "r", token(), new ItemPredicate.All()));
    assertThat(read(ns, "r", new ItemPredicate.All(), 1 << 20)).isEmpty();
    assertThat(values(read(ns, "other", new ItemPredicate.All(), 1 << 20))).containsExactly("kept");
  }

  @Test
  void a_mutation_puts_to_one_record_and_deletes_from_another() {
    KvNamespace ns = namespace("items_mutate", ClusteringOrder.ASC);
    put(ns, "from", token(), item("x", "1"), item("y", "2"));

    join(
        store.mutate(
            ns,
            token(),
            List.of(
                new RecordMutation("to", List.of(item("x", "moved")), List.of()),
                new RecordMutation("from", List.of(), List.of(keysOf("x"))))));

    assertThat(values(read(ns, "to", new ItemPredicate.All(), 1 << 20))).containsExactly("moved");
    assertThat(keys(read(ns, "from", new ItemPredicate.All(), 1 << 20))).containsExactly("y");
  }

  @Test
  void a_value_over_the_chunk_threshold_is_stored_in_chunks_and_read_back_whole() {
    KvNamespace ns = namespace("items_chunks", ClusteringOrder.ASC);
    byte[] large = new byte[10_000];
    new Random(3).nextBytes(large); // incompressible: stored at its full size, in 10 chunks

    join(store.put(ns, "r", token(), List.of(KvItem.of(b("big"), large), item("small", "s"))));

    List<KvItem> back = read(ns, "r", new ItemPredicate.All(), 1 << 20);
    assertThat(keys(back)).containsExactly("big", "small");
    assertThat(back.get(0).value()).isEqualTo(large);
    assertThat(chunkRows(ns, "r")).isEqualTo(10);
  }

  @Test
  void the_sweep_removes_the_chunks_of_a_replaced_value_and_keeps_those_of_the_current_one() {
    KvNamespace ns = namespace("items_sweep", ClusteringOrder.ASC);
    byte[] first = new byte[6_000];
    byte[] second = new byte[5_000];
    new Random(4).nextBytes(first);
    new Random(5).nextBytes(second);
    join(store.put(ns, "r", token(), List.of(KvItem.of(b("big"), first))));
    join(store.put(ns, "r", token(), List.of(KvItem.of(b("big"), second))));
    assertThat(chunkRows(ns, "r")).as("both values' chunks").isEqualTo(6 + 5);

    ChunkSweep sweep =
        new CqlChunkSweep(
            session,
            log,
            CHUNKS,
            Clock.fixed(Instant.now().plus(Duration.ofHours(2)), ZoneOffset.UTC));
    ChunkSweep.Result result = join(sweep.pass());

    assertThat(result.valuesRemoved()).isGreaterThanOrEqualTo(1);
    assertThat(result.failures()).isZero();
    assertThat(chunkRows(ns, "r")).as("the current value's chunks").isEqualTo(5);
    assertThat(read(ns, "r", keysOf("big"), 1 << 20).get(0).value()).isEqualTo(second);
  }

  @Test
  void the_sweep_lets_go_of_the_chunks_of_a_namespace_whose_tables_were_dropped() {
    KvNamespace ns = namespace("items_dropped", ClusteringOrder.ASC);
    join(store.put(ns, "r", token(), List.of(KvItem.of(b("big"), new byte[6_000]))));
    join(store.put(ns, "r", token(), List.of(KvItem.of(b("big"), new byte[5_000]))));
    join(tables.drop(ns)); // DeleteNamespace: the item and chunk tables go, the log stays
    Clock later = Clock.fixed(Instant.now().plus(Duration.ofHours(2)), ZoneOffset.UTC);

    ChunkSweep.Result first = join(new CqlChunkSweep(session, log, CHUNKS, later).pass());
    ChunkSweep.Result second = join(new CqlChunkSweep(session, log, CHUNKS, later).pass());

    assertThat(first.failures()).as("a dropped table is not a failure to retry").isZero();
    assertThat(second.examined()).as("its entries left the log").isZero();
  }

  @Test
  void a_scan_of_the_whole_ring_returns_every_item_of_every_record_once() {
    KvNamespace ns = namespace("items_scan", ClusteringOrder.ASC);
    for (int r = 0; r < 20; r++) {
      put(ns, "rec" + r, token(), item("a", "r" + r + "a"), item("b", "r" + r + "b"));
    }
    ScanSegment whole = ScanSegment.of(true, 0, true, 1);
    List<String> seen = new ArrayList<>();
    ScanPosition after = null;
    for (int pages = 0; pages < 1000; pages++) {
      ScanPage page =
          join(
              store.scan(
                  ns,
                  whole,
                  after,
                  true,
                  7,
                  new BytePage(1 << 20, Long.MAX_VALUE),
                  ReadBudget.NONE,
                  ResponseMemory.UNBOUNDED));
      for (ScannedItem scanned : page.items()) {
        seen.add(scanned.id() + "/" + s(scanned.item().key()) + "=" + s(scanned.item().value()));
      }
      if (!page.more()) {
        break;
      }
      after = page.last();
    }

    assertThat(seen).hasSize(40).doesNotHaveDuplicates();
    assertThat(seen).contains("rec7/b=r7b", "rec19/a=r19a");
  }

  @Test
  void every_call_on_a_dropped_table_fails_as_a_refusal_of_the_store() {
    KvNamespace ns = namespace("items_dropped", ClusteringOrder.ASC);
    put(ns, "r", token(), item("a", "1"));
    session.execute(
        SimpleStatement.newInstance("DROP TABLE " + KEYSPACE + ".items_dropped")
            .setTimeout(Duration.ofSeconds(30)));

    List<Runnable> calls =
        List.of(
            () -> put(ns, "r", token(), item("b", "2")),
            () -> join(store.delete(ns, "r", token(), keysOf("a"))),
            () ->
                join(
                    store.mutate(
                        ns,
                        token(),
                        List.of(new RecordMutation("r", List.of(item("c", "3")), List.of())))),
            () -> read(ns, "r", new ItemPredicate.All(), 1 << 20),
            () ->
                join(
                    store.scan(
                        ns,
                        ScanSegment.of(true, 0, true, 1),
                        null,
                        true,
                        10,
                        new BytePage(1 << 20, Long.MAX_VALUE),
                        ReadBudget.NONE,
                        ResponseMemory.UNBOUNDED)));
    for (Runnable call : calls) {
      assertThatThrownBy(call::run)
          .isInstanceOfSatisfying(
              StorageException.class,
              e -> {
                assertThat(e.kind()).isEqualTo(VarveException.Kind.FAILED_PRECONDITION);
                assertThat(e.retryable()).isFalse();
              });
    }
  }

  static long chunkRows(KvNamespace ns, String id) {
    return session
        .execute(
            SimpleStatement.newInstance(
                "SELECT id FROM "
                    + KEYSPACE
                    + "."
                    + ItemTable.chunkTable(ns.table())
                    + " WHERE id = ? ALLOW FILTERING",
                id))
        .all()
        .size();
  }
}
