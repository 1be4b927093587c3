package io.varve.cassandra.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.groups.Tuple.tuple;

import io.varve.cassandra.kv.FakeSession.Cells;
import io.varve.core.error.VarveException;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.ItemPage;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ResponseBound;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.namespace.Consistency;
import io.varve.core.read.ResponseMemory;
import io.varve.core.slo.ReadDeadline;
import io.varve.format.ValueCodec;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * One page read of a record's items, against a fake of the driver's session (no Cassandra): the
 * page's byte bound and item limit, whether more follow, the rows it cost, values as written or as
 * stored, chunked values read once the page is known, the rest of a page planned by the items'
 * sizes, and a read budget that cuts the page short.
 */
class ItemReadTest {

  static final KvNamespace NS =
      new KvNamespace(
          "kv", "ks", "items", ClusteringOrder.ASC, Consistency.DEFAULT, Optional.empty());

  static final String ID = "record";

  /** The generation (write time) of every item the tests write. */
  static final long WRITTEN = 1_700_000_000_000_000L;

  static final long SECOND = 1_000_000_000L;

  private final FakeSession session = new FakeSession();
  private final CqlItemReader reader = new CqlItemReader(session, KvLimits.DEFAULT, 2);

  /** Readings of the test's clock, in nanoseconds. */
  private final AtomicLong now = new AtomicLong();

  private final ManualTimers timers = new ManualTimers();

  /** What the read held of the response memory, each time it asked. */
  private final List<Long> held = new ArrayList<>();

  /** Chunk queries sent when the read first held memory; -1 while it has not. */
  private long chunkQueriesAtHold = -1;

  private final ResponseMemory memory =
      bytes -> {
        if (chunkQueriesAtHold < 0) {
          chunkQueriesAtHold = session.count("CHUNK");
        }
        held.add(bytes);
      };

  static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static byte[] filled(int size, char c) {
    byte[] value = new byte[size];
    Arrays.fill(value, (byte) c);
    return value;
  }

  /** Writes item {@code key} with its value in the row, as Varve stores it. */
  void put(String key, byte[] value) {
    store(key, ValueMetadata.inline("tok", value.length, ValueMetadata.Compression.NONE), value);
  }

  void store(String key, ValueMetadata metadata, byte[] stored) {
    byte[] encoded = metadata.encode();
    session.put(
        ID,
        bytes(key),
        new Cells(
            ValueMetadata.frame(encoded, ByteBuffer.wrap(stored)),
            ByteBuffer.wrap(encoded),
            WRITTEN));
  }

  /** Writes item {@code key} marked deleted, as DeleteItems does. */
  void putDeleted(String key) {
    store(key, ValueMetadata.expired("del"), new byte[0]);
  }

  /** Writes item {@code key} with its value in chunks of {@code chunkSize} bytes. */
  void putChunked(String key, byte[] value, int chunkSize) {
    CRC32C crc = new CRC32C();
    crc.update(value);
    int chunks = (value.length + chunkSize - 1) / chunkSize;
    ValueMetadata metadata =
        ValueMetadata.chunked(
            "big",
            value.length,
            ValueMetadata.Compression.NONE,
            chunks,
            chunkSize,
            value.length,
            (int) crc.getValue());
    store(key, metadata, new byte[0]);
    for (int i = 0; i < chunks; i++) {
      int from = i * chunkSize;
      session.putChunk(
          ID,
          bytes(key),
          WRITTEN,
          "big",
          i,
          ByteBuffer.wrap(value, from, Math.min(chunkSize, value.length - from)).slice());
    }
  }

  /** Items {@code k1} to {@code k<count>}, each with a value of {@code valueBytes} bytes. */
  void putItems(int count, int valueBytes) {
    for (int i = 1; i <= count; i++) {
      put("k" + i, filled(valueBytes, (char) ('a' + i)));
    }
  }

  ItemRead read(boolean values, BytePage page, boolean raw, ReadBudget budget) {
    return new ItemRead(reader, NS, ID, values, page, raw, budget, memory);
  }

  ItemRead read(BytePage page) {
    return read(true, page, false, ReadBudget.NONE);
  }

  /** A read of values into {@code page} that holds its response in {@code memory}. */
  ItemRead read(BytePage page, ResponseMemory memory) {
    return new ItemRead(reader, NS, ID, true, page, false, ReadBudget.NONE, memory);
  }

  /** One query of {@code fetchSize} rows into the page, as a read of a small page makes it. */
  static ItemPage collected(ItemRead read, ItemPredicate predicate, int fetchSize) {
    return join(
        read.collect(predicate, fetchSize, false)
            .thenApply(read::page)
            .thenCompose(read::assembled));
  }

  static <T> T join(CompletionStage<T> stage) {
    return stage.toCompletableFuture().join();
  }

  static List<String> keys(ItemPage page) {
    return page.items().stream().map(i -> new String(i.key(), StandardCharsets.UTF_8)).toList();
  }

  static final ItemPredicate ALL = new ItemPredicate.All();

  /** A budget whose deadline is at 0.9 s on the test clock (a max of 1 s, less the margin). */
  private ReadBudget budget() {
    return ReadBudget.of(
        ReadDeadline.of(0, Duration.ofSeconds(1), Long.MAX_VALUE, now::get),
        Long.MAX_VALUE,
        timers,
        () -> {});
  }

  @Test
  void a_page_takes_items_until_the_next_would_pass_its_byte_bound_and_says_more_follow() {
    putItems(5, 100);

    ItemPage page = collected(read(new BytePage(350, Long.MAX_VALUE)), ALL, 10);

    assertThat(keys(page)).containsExactly("k1", "k2", "k3");
    assertThat(page.bytes()).as("keys and values").isEqualTo(3 * (2 + 100));
    assertThat(page.more()).isTrue();
    assertThat(page.rowsFetched()).as("the whole fetch, taken or not").isEqualTo(5);
    assertThat(page.rowsPlanned()).isZero();
    assertThat(page.largestFetchBytes()).isGreaterThan(5 * (2 + 100));
    assertThat(page.items().get(0).value()).isEqualTo(filled(100, 'b'));
    assertThat(page.items())
        .allSatisfy(
            item -> {
              assertThat(item.valueSize()).isEqualTo(100);
              assertThat(item.generationMicros()).isEqualTo(WRITTEN);
              assertThat(item.compression()).isEqualTo(ValueMetadata.Compression.NONE);
            });
  }

  @Test
  void a_page_at_the_requests_item_limit_says_no_more_follow() {
    putItems(5, 100);

    ItemPage page = collected(read(new BytePage(1 << 20, 2)), ALL, 10);

    assertThat(keys(page)).containsExactly("k1", "k2");
    assertThat(page.more()).isFalse();
  }

  @Test
  void a_record_read_to_its_end_says_no_more_follow() {
    putItems(3, 100);

    ItemPage page = collected(read(new BytePage(1 << 20, Long.MAX_VALUE)), ALL, 10);

    assertThat(keys(page)).containsExactly("k1", "k2", "k3");
    assertThat(page.more()).isFalse();
    assertThat(page.rowsFetched()).isEqualTo(3);
  }

  @Test
  void a_read_that_stops_after_one_fetch_of_a_record_with_more_rows_says_more_follow() {
    putItems(5, 100);

    ItemPage page = collected(read(new BytePage(1 << 20, Long.MAX_VALUE)), ALL, 2);

    assertThat(keys(page)).containsExactly("k1", "k2");
    assertThat(page.more()).isTrue();
    assertThat(page.rowsFetched()).isEqualTo(2);
    assertThat(session.queries()).extracting(FakeSession.Query::pageSize).containsExactly(2);
  }

  @Test
  void a_first_item_larger_than_the_page_bound_comes_alone() {
    put("k1", filled(1000, 'x'));
    put("k2", filled(1, 'y'));

    ItemPage page = collected(read(new BytePage(100, Long.MAX_VALUE)), ALL, 10);

    assertThat(keys(page)).containsExactly("k1");
    assertThat(page.bytes()).isEqualTo(1002);
    assertThat(page.more()).isTrue();
  }

  @Test
  void items_marked_deleted_are_skipped_and_count_as_fetched_not_returned() {
    put("k1", filled(10, 'a'));
    putDeleted("k2");
    put("k3", filled(10, 'c'));

    ItemPage page = collected(read(new BytePage(1 << 20, 2)), ALL, 10);

    assertThat(keys(page)).containsExactly("k1", "k3");
    assertThat(page.bytes()).isEqualTo(2 * (2 + 10));
    assertThat(page.rowsFetched()).isEqualTo(3);
    assertThat(page.more()).as("two items: the item limit, the deleted one not counted").isFalse();
  }

  @Test
  void a_read_of_keys_returns_each_items_size_without_its_value_and_bounds_the_page_by_its_keys() {
    putItems(3, 100);

    ItemPage page =
        collected(
            read(false, new BytePage(1 << 20, Long.MAX_VALUE), false, ReadBudget.NONE), ALL, 10);

    assertThat(keys(page)).containsExactly("k1", "k2", "k3");
    assertThat(page.items())
        .allSatisfy(
            item -> {
              assertThat(item.value()).isEmpty();
              assertThat(item.valueSize()).isEqualTo(100);
              assertThat(item.generationMicros()).isEqualTo(WRITTEN);
            });
    assertThat(page.bytes()).isEqualTo(3 * 2);
    assertThat(session.queries())
        .as("the metadata, never the values")
        .extracting(FakeSession.Query::shape)
        .containsExactly("METADATA");
  }

  @Test
  void a_value_stored_compressed_comes_back_as_written_or_as_stored_to_a_client_that_asked() {
    byte[] value = filled(10_000, 'z');
    ValueCodec.Stored stored = new ValueCodec(0).encode(value);
    assertThat(stored.metadata()).isEqualTo(ValueCodec.ZSTD);
    byte[] compressed = RowStream.bytes(stored.value());
    store(
        "k1",
        ValueMetadata.inline("tok", value.length, ValueMetadata.Compression.ZSTD),
        compressed);

    KvItem plain = collected(read(new BytePage(1 << 20, Long.MAX_VALUE)), ALL, 10).items().get(0);
    KvItem raw =
        collected(read(true, new BytePage(1 << 20, Long.MAX_VALUE), true, ReadBudget.NONE), ALL, 10)
            .items()
            .get(0);

    assertThat(plain.value()).isEqualTo(value);
    assertThat(plain.compression()).isEqualTo(ValueMetadata.Compression.NONE);
    assertThat(raw.value()).isEqualTo(compressed);
    assertThat(raw.compression()).isEqualTo(ValueMetadata.Compression.ZSTD);
    assertThat(raw.valueSize()).isEqualTo(plain.valueSize()).isEqualTo(value.length);
  }

  @Test
  void
      a_chunked_value_counts_whole_toward_the_page_and_is_read_from_its_chunks_once_the_page_is_known() {
    byte[] large = new byte[2_500];
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) i; // each chunk's bytes differ: a chunk out of place would show
    }
    put("k1", filled(10, 'a'));
    putChunked("k2", large, 1_000);
    put("k3", filled(10, 'c'));

    ItemPage page = collected(read(new BytePage(1 << 20, Long.MAX_VALUE)), ALL, 10);

    assertThat(keys(page)).containsExactly("k1", "k2", "k3");
    assertThat(page.items().get(1).value()).isEqualTo(large);
    assertThat(page.items().get(1).valueSize()).isEqualTo(large.length);
    assertThat(page.items().get(1).generationMicros()).isEqualTo(WRITTEN);
    assertThat(page.bytes()).isEqualTo((2 + 10) + (2 + 2_500) + (2 + 10));
    assertThat(held)
        .as("the page's bytes with each item's overhead, held once")
        .containsExactly(page.bytes() + 3 * ResponseBound.ITEM_OVERHEAD_BYTES);
    assertThat(chunkQueriesAtHold).as("held before any chunk is read").isZero();
    assertThat(session.count("CHUNK")).isEqualTo(3);
  }

  @Test
  void a_chunked_value_that_does_not_fit_the_page_reads_none_of_its_chunks() {
    put("k1", filled(500, 'a'));
    putChunked("k2", filled(3_000, 'b'), 1_000);

    ItemPage page = collected(read(new BytePage(1_000, Long.MAX_VALUE)), ALL, 10);

    assertThat(keys(page)).containsExactly("k1");
    assertThat(page.more()).isTrue();
    assertThat(session.count("CHUNK")).isZero();
  }

  @Test
  void a_read_without_room_for_its_page_is_refused_before_any_chunk_is_read() {
    putChunked("k1", filled(3_000, 'b'), 1_000);
    ResponseMemory full =
        bytes -> {
          throw new VarveException(VarveException.Kind.RESOURCE_EXHAUSTED, "no room");
        };
    ItemRead read = read(new BytePage(1 << 20, Long.MAX_VALUE), full);

    assertThatThrownBy(() -> collected(read, ALL, 10))
        .isInstanceOf(CompletionException.class)
        .cause()
        .isInstanceOfSatisfying(
            VarveException.class,
            e -> assertThat(e.kind()).isEqualTo(VarveException.Kind.RESOURCE_EXHAUSTED));
    assertThat(session.count("CHUNK")).isZero();
  }

  @Test
  void a_page_of_many_items_holds_its_memory_a_mib_at_a_time_as_their_rows_arrive() {
    putItems(4000, 1000);
    ItemRead read = read(new BytePage(16 << 20, Long.MAX_VALUE));

    ItemPage page =
        join(read.collect(ALL, 500, true).thenApply(read::page).thenCompose(read::assembled));

    assertThat(page.items()).hasSize(4000);
    PageMemoryChecks.assertHeldInSteps(
        held,
        ResponseBound.heldBytes(page.bytes(), 4000),
        5 + 1000 + ResponseBound.ITEM_OVERHEAD_BYTES);
  }

  @Test
  void a_page_of_many_items_without_room_stops_fetching_where_the_memory_ran_out() {
    putItems(4000, 1000);
    ItemRead read =
        read(new BytePage(16 << 20, Long.MAX_VALUE), PageMemoryChecks.roomForOneStepAndAHalf());

    PageMemoryChecks.assertRefused(
        () ->
            join(read.collect(ALL, 500, true).thenApply(read::page).thenCompose(read::assembled)));
    // 2 MiB of items (about 1,850) are due at the second hold: 4 driver pages of 500 rows, of 8
    assertThat(session.driverPages())
        .as("driver pages fetched before the refusal, of the 8 the page needs")
        .isLessThanOrEqualTo(4);
  }

  @Test
  void a_chunked_item_deleted_after_its_row_was_read_is_left_out_of_the_page() {
    put("k1", filled(10, 'a'));
    putChunked("k2", filled(3_000, 'b'), 1_000);
    put("k3", filled(10, 'c'));
    ItemRead read = read(new BytePage(1 << 20, Long.MAX_VALUE));
    ItemPage rows = join(read.collect(ALL, 10, false).thenApply(read::page));
    // deleted meanwhile: the sweeper took the chunks of the value the row named
    session.remove(ID, bytes("k2"));
    session.removeChunks();

    ItemPage page = join(read.assembled(rows));

    assertThat(keys(page)).containsExactly("k1", "k3");
    assertThat(page.more()).isFalse();
  }

  @Test
  void a_chunked_value_replaced_by_a_larger_one_after_its_row_was_read_comes_back_new() {
    putChunked("k1", filled(3_000, 'b'), 1_000);
    ItemRead read = read(new BytePage(1 << 20, Long.MAX_VALUE));
    ItemPage rows = join(read.collect(ALL, 10, false).thenApply(read::page));
    byte[] newer = filled(4_000, 'n');
    session.removeChunks();
    put("k1", newer);

    ItemPage page = join(read.assembled(rows));

    assertThat(keys(page)).containsExactly("k1");
    assertThat(page.items().get(0).value()).isEqualTo(newer);
    assertThat(held)
        .as("the page (its item with its overhead), then what the newer value adds")
        .containsExactly(2L + 3_000 + ResponseBound.ITEM_OVERHEAD_BYTES, 1_000L);
  }

  @Test
  void the_planned_rest_of_a_page_fetches_with_their_values_exactly_the_rows_that_fit() {
    putItems(6, 100);
    ItemRead read = read(new BytePage(350, Long.MAX_VALUE));

    RowStream.Outcome first = join(read.collect(ALL, 1, false));
    assertThat(first.end()).isEqualTo(RowStream.End.PAUSED);
    ItemPage page =
        join(
            read.planned(ALL.after(first.lastKey(), NS.order()), 100).thenCompose(read::assembled));

    assertThat(keys(page)).containsExactly("k1", "k2", "k3");
    assertThat(page.more()).isTrue();
    assertThat(page.rowsFetched()).as("no row fetched with its value beyond the page").isEqualTo(3);
    assertThat(page.rowsPlanned()).as("the sizes of k2 to k6, in one fetch").isEqualTo(5);
    assertThat(session.queries())
        .extracting(FakeSession.Query::shape, FakeSession.Query::pageSize)
        .containsExactly(tuple("VALUES", 1), tuple("SIZES", 100), tuple("VALUES", 2));
  }

  @Test
  void a_planned_read_of_listed_keys_fetches_those_that_exist() {
    putItems(6, 100);
    ItemPredicate wanted =
        new ItemPredicate.Keys(List.of(bytes("k1"), bytes("k2"), bytes("k4"), bytes("k9")));
    ItemRead read = read(new BytePage(1 << 20, Long.MAX_VALUE));

    RowStream.Outcome first = join(read.collect(wanted, 1, false));
    ItemPage page =
        join(
            read.planned(wanted.after(first.lastKey(), NS.order()), 100)
                .thenCompose(read::assembled));

    assertThat(keys(page)).containsExactly("k1", "k2", "k4");
    assertThat(page.more()).isFalse();
    assertThat(page.rowsFetched()).isEqualTo(3);
    assertThat(page.rowsPlanned()).isEqualTo(2);
  }

  @Test
  void planning_a_rest_of_no_keys_answers_at_once_with_no_more() {
    ItemPage page =
        join(
            read(new BytePage(1 << 20, Long.MAX_VALUE))
                .planned(new ItemPredicate.Keys(List.of()), 100));

    assertThat(page.items()).isEmpty();
    assertThat(page.more()).isFalse();
    assertThat(session.queries()).isEmpty();
  }

  @Test
  void a_row_rewritten_larger_between_planning_and_fetching_still_stops_the_page() {
    putItems(6, 100);
    session.onQuery(
        q -> {
          if (q.shape().equals("VALUES") && session.count("VALUES") == 2) {
            put("k3", filled(300, 'r')); // after the plan, before the rows are fetched
          }
        });
    ItemRead read = read(new BytePage(350, Long.MAX_VALUE));

    RowStream.Outcome first = join(read.collect(ALL, 1, false));
    ItemPage page = join(read.planned(ALL.after(first.lastKey(), NS.order()), 100));

    assertThat(keys(page)).containsExactly("k1", "k2");
    assertThat(page.bytes()).isLessThanOrEqualTo(350);
    assertThat(page.more()).isTrue();
  }

  @Test
  void a_read_whose_caller_gave_up_sends_no_query_and_says_more_follow() {
    putItems(3, 100);
    ReadBudget budget = budget();
    budget.cancel();

    ItemRead read = read(true, new BytePage(1 << 20, Long.MAX_VALUE), false, budget);
    ItemPage page = collected(read, ALL, 10);

    assertThat(page.items()).isEmpty();
    assertThat(page.more()).isTrue();
    assertThat(session.queries()).isEmpty();
  }

  @Test
  void a_read_past_its_deadline_keeps_the_items_taken_and_plans_no_more() {
    putItems(6, 100);
    ReadBudget budget = budget();
    ItemRead read = read(true, new BytePage(1 << 20, Long.MAX_VALUE), false, budget);

    RowStream.Outcome first = join(read.collect(ALL, 2, false));
    now.set(SECOND); // the deadline passed during the first fetch
    ItemPage page = join(read.planned(ALL.after(first.lastKey(), NS.order()), 100));

    assertThat(keys(page)).containsExactly("k1", "k2");
    assertThat(page.more()).isTrue();
    assertThat(budget.cutShort()).isTrue();
    assertThat(session.count("SIZES")).isZero();
  }

  @Test
  void a_planning_fetch_in_flight_at_the_deadline_is_cancelled_and_the_page_keeps_its_items() {
    putItems(6, 100);
    ReadBudget budget = budget();
    ItemRead read = read(true, new BytePage(1 << 20, Long.MAX_VALUE), false, budget);

    RowStream.Outcome first = join(read.collect(ALL, 2, false));
    CompletableFuture<Void> answer = session.holdNext();
    CompletionStage<ItemPage> planned = read.planned(ALL.after(first.lastKey(), NS.order()), 100);
    assertThat(planned.toCompletableFuture()).as("the sizes are being fetched").isNotDone();
    timers.fire(); // the deadline's timer

    ItemPage page = join(planned);
    assertThat(keys(page)).containsExactly("k1", "k2");
    assertThat(page.more()).isTrue();
    assertThat(budget.cutShort()).isTrue();
    answer.complete(null); // the fetch answers late: nothing changes
    assertThat(keys(page)).containsExactly("k1", "k2");
  }
}
