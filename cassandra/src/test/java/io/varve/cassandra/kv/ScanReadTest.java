package io.varve.cassandra.kv;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.cassandra.kv.FakeResults.Column;
import io.varve.cassandra.kv.FakeResults.Columns;
import io.varve.cassandra.kv.FakeResults.FakeRow;
import io.varve.cassandra.kv.FakeResults.Pages;
import io.varve.cassandra.kv.FakeSession.Cells;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ResponseBound;
import io.varve.core.kv.ScanPage;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.namespace.Consistency;
import io.varve.core.slo.ReadDeadline;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.Test;

/**
 * One scan page's rows, over faked driver pages (no Cassandra): what it takes under its byte bound,
 * the position the next page resumes after, and whether more follow.
 */
class ScanReadTest {

  /** The columns of a scan of values ({@link ScanStatements}). */
  static final Columns SCAN =
      new Columns(
          new Column("key", DataTypes.BLOB),
          new Column("value", DataTypes.BLOB),
          new Column("writetime(value)", DataTypes.BIGINT),
          new Column("id", DataTypes.TEXT),
          new Column("system.token(id)", DataTypes.BIGINT));

  static final KvNamespace NS =
      new KvNamespace(
          "kv", "ks", "items", ClusteringOrder.ASC, Consistency.DEFAULT, Optional.empty());

  static final long WRITTEN = 1_700_000_000_000_000L;

  private final AtomicLong now = new AtomicLong();
  private final ManualTimers timers = new ManualTimers();
  private final List<Long> held = new ArrayList<>();

  static ByteBuffer bigint(long v) {
    return TypeCodecs.BIGINT.encodePrimitive(v, ProtocolVersion.DEFAULT);
  }

  static ByteBuffer utf8(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  /**
   * A row of item {@code key} of record {@code id} at {@code token}, stored as {@code metadata}
   * says.
   */
  static Row row(long token, String id, String key, ValueMetadata metadata, byte[] stored) {
    return new FakeRow(
        SCAN,
        utf8(key),
        ValueMetadata.frame(metadata.encode(), ByteBuffer.wrap(stored)),
        bigint(WRITTEN),
        utf8(id),
        bigint(token));
  }

  static Row row(long token, String id, String key, int valueBytes) {
    return row(
        token,
        id,
        key,
        ValueMetadata.inline("tok", valueBytes, ValueMetadata.Compression.NONE),
        new byte[valueBytes]);
  }

  static Row deleted(long token, String id, String key) {
    return row(token, id, key, ValueMetadata.expired("del"), new byte[0]);
  }

  static <T> T join(CompletionStage<T> stage) {
    return stage.toCompletableFuture().join();
  }

  static List<String> items(ScanPage page) {
    return page.items().stream()
        .map(i -> i.id() + "/" + new String(i.item().key(), StandardCharsets.UTF_8))
        .toList();
  }

  static String position(ScanPage page) {
    return page.last().token()
        + "/"
        + page.last().id()
        + "/"
        + new String(page.last().key(), StandardCharsets.UTF_8);
  }

  ScanRead read(BytePage page, ReadBudget budget) {
    return new ScanRead(true, page, budget, held::add);
  }

  /** A budget whose deadline is at 0.9 s on the test clock (a max of 1 s, less the margin). */
  private ReadBudget budget() {
    return ReadBudget.of(
        ReadDeadline.of(0, Duration.ofSeconds(1), Long.MAX_VALUE, now::get),
        Long.MAX_VALUE,
        timers,
        () -> {});
  }

  @Test
  void a_page_counts_each_items_record_id_key_and_value_and_resumes_after_the_last_it_took() {
    Pages pages =
        new Pages(
            SCAN,
            List.of(
                List.of(row(10, "r1", "a", 100), row(10, "r1", "b", 100)),
                List.of(row(20, "r2", "a", 100))));
    // each item: 2 (id) + 1 (key) + 100 (value)
    ScanRead read = read(new BytePage(250, Long.MAX_VALUE), ReadBudget.NONE);

    boolean stopped = join(read.rows(pages::first));
    ScanPage page = read.page(stopped);

    assertThat(stopped).isTrue();
    assertThat(items(page)).containsExactly("r1/a", "r1/b");
    assertThat(page.bytes()).isEqualTo(2 * 103);
    assertThat(page.more()).isTrue();
    assertThat(position(page)).isEqualTo("10/r1/b");
    assertThat(page.rowsFetched()).isEqualTo(3);
    assertThat(page.items())
        .allSatisfy(
            i -> {
              assertThat(i.token()).isEqualTo(i.id().equals("r1") ? 10 : 20);
              assertThat(i.item().generationMicros()).isEqualTo(WRITTEN);
              assertThat(i.item().value()).hasSize(100);
            });
  }

  @Test
  void a_deleted_item_is_skipped_but_the_next_page_resumes_after_it() {
    Pages pages =
        new Pages(
            SCAN,
            List.of(
                List.of(row(10, "r1", "a", 100), deleted(10, "r1", "b"), row(10, "r1", "c", 100))));
    ScanRead read = read(new BytePage(150, Long.MAX_VALUE), ReadBudget.NONE);

    ScanPage page = read.page(join(read.rows(pages::first)));

    assertThat(items(page)).containsExactly("r1/a");
    assertThat(page.more()).isTrue();
    assertThat(position(page)).as("the deleted item was consumed").isEqualTo("10/r1/b");
  }

  @Test
  void a_segment_whose_rows_run_out_says_no_more_follow() {
    Pages pages =
        new Pages(SCAN, List.of(List.of(row(10, "r1", "a", 1)), List.of(row(20, "r2", "a", 1))));
    ScanRead read = read(new BytePage(1 << 20, Long.MAX_VALUE), ReadBudget.NONE);

    boolean stopped = join(read.rows(pages::first));
    ScanPage page = read.page(stopped);

    assertThat(stopped).isFalse();
    assertThat(items(page)).containsExactly("r1/a", "r2/a");
    assertThat(page.more()).isFalse();
    assertThat(position(page)).isEqualTo("20/r2/a");
  }

  @Test
  void a_page_at_the_requests_item_limit_says_no_more_follow() {
    Pages pages = new Pages(SCAN, List.of(List.of(row(10, "r1", "a", 1), row(10, "r1", "b", 1))));
    ScanRead read = read(new BytePage(1 << 20, 1), ReadBudget.NONE);

    boolean stopped = join(read.rows(pages::first));
    ScanPage page = read.page(stopped);

    assertThat(stopped).isTrue();
    assertThat(items(page)).containsExactly("r1/a");
    assertThat(page.more()).isFalse();
  }

  @Test
  void a_scan_past_its_deadline_says_more_follow_from_the_last_row_it_consumed() {
    ReadBudget budget = budget();
    Pages pages =
        new Pages(SCAN, List.of(List.of(row(10, "r1", "a", 1)), List.of(row(10, "r1", "b", 1))));
    ScanRead read = read(new BytePage(1 << 20, Long.MAX_VALUE), budget);

    boolean stopped =
        join(
            read.rows(
                () -> {
                  CompletionStage<AsyncResultSet> first = pages.first();
                  now.set(1_000_000_000L); // the deadline passes during the first fetch
                  return first;
                }));
    ScanPage page = read.page(stopped);

    assertThat(stopped).isTrue();
    assertThat(items(page)).containsExactly("r1/a");
    assertThat(page.more()).isTrue();
    assertThat(position(page)).isEqualTo("10/r1/a");
    assertThat(pages.fetched()).isEqualTo(1);
    assertThat(budget.cutShort()).isTrue();
  }

  @Test
  void a_page_reads_at_most_its_bound_of_rows_then_resumes_after_the_last() {
    // the cells every row shares (read, never written, by the scan)
    ByteBuffer value =
        ValueMetadata.frame(ValueMetadata.expired("del").encode(), ByteBuffer.allocate(0));
    ByteBuffer writetime = bigint(WRITTEN);
    ByteBuffer id = utf8("r1");
    ByteBuffer token = bigint(10);
    List<Row> rows = new ArrayList<>();
    for (int i = 0; i <= ScanRead.MAX_ROWS_PER_PAGE; i++) {
      rows.add(new FakeRow(SCAN, utf8("k" + (1_000_000 + i)), value, writetime, id, token));
    }
    ScanRead read = read(new BytePage(1 << 20, Long.MAX_VALUE), ReadBudget.NONE);

    boolean stopped = join(read.rows(new Pages(SCAN, List.of(rows))::first));
    ScanPage page = read.page(stopped);

    assertThat(stopped).isTrue();
    assertThat(page.items()).isEmpty();
    assertThat(page.more()).as("a segment of deleted items still answers, with a token").isTrue();
    assertThat(position(page)).isEqualTo("10/r1/k" + (1_000_000 + ScanRead.MAX_ROWS_PER_PAGE - 1));
  }

  /** 8 driver pages of 500 rows, items of 1,000 bytes of record {@code r1}: about 4 MB. */
  static Pages manyItems() {
    List<List<Row>> driverPages = new ArrayList<>();
    for (int p = 0; p < 8; p++) {
      List<Row> rows = new ArrayList<>();
      for (int r = 0; r < 500; r++) {
        rows.add(row(10, "r1", String.format("k%04d", p * 500 + r), 1_000));
      }
      driverPages.add(rows);
    }
    return new Pages(SCAN, driverPages);
  }

  @Test
  void a_page_of_many_items_holds_its_memory_a_mib_at_a_time_as_their_rows_arrive() {
    Pages pages = manyItems();
    ScanRead read = read(new BytePage(16 << 20, Long.MAX_VALUE), ReadBudget.NONE);

    boolean stopped = join(read.rows(pages::first));
    join(read.assemble(NS, new CqlItemReader(new FakeSession(), KvLimits.DEFAULT, 2).chunks()));
    ScanPage page = read.page(stopped);

    assertThat(page.items()).hasSize(4000);
    PageMemoryChecks.assertHeldInSteps(
        held,
        ResponseBound.heldBytes(page.bytes(), 4000),
        2 + 5 + 1_000 + ResponseBound.ITEM_OVERHEAD_BYTES);
  }

  @Test
  void a_page_of_many_items_without_room_stops_fetching_where_the_memory_ran_out() {
    Pages pages = manyItems();
    ScanRead read =
        new ScanRead(
            true,
            new BytePage(16 << 20, Long.MAX_VALUE),
            ReadBudget.NONE,
            PageMemoryChecks.roomForOneStepAndAHalf());

    PageMemoryChecks.assertRefused(() -> join(read.rows(pages::first)));
    // 2 MiB of items (about 1,850) are due at the second hold: 4 driver pages of 500 rows, of 8
    assertThat(pages.fetched())
        .as("driver pages fetched before the refusal, of the 8 the page needs")
        .isLessThanOrEqualTo(4);
  }

  @Test
  void a_chunked_value_is_read_from_its_chunks_after_the_page_is_held() {
    FakeSession session = new FakeSession();
    byte[] large = new byte[2_500];
    for (int i = 0; i < large.length; i++) {
      large[i] = (byte) i;
    }
    CRC32C crc = new CRC32C();
    crc.update(large);
    ValueMetadata metadata =
        ValueMetadata.chunked(
            "big",
            large.length,
            ValueMetadata.Compression.NONE,
            3,
            1_000,
            large.length,
            (int) crc.getValue());
    for (int i = 0; i < 3; i++) {
      session.putChunk(
          "r1",
          "b".getBytes(StandardCharsets.UTF_8),
          WRITTEN,
          "big",
          i,
          ByteBuffer.wrap(large, i * 1_000, Math.min(1_000, large.length - i * 1_000)).slice());
    }
    // the item row as it is now, read again only if a chunk were missing
    session.put(
        "r1",
        "b".getBytes(StandardCharsets.UTF_8),
        new Cells(
            ValueMetadata.frame(metadata.encode(), ByteBuffer.allocate(0)),
            ByteBuffer.wrap(metadata.encode()),
            WRITTEN));
    Pages pages =
        new Pages(
            SCAN,
            List.of(
                List.of(
                    row(10, "r1", "a", 10),
                    row(10, "r1", "b", metadata, new byte[0]),
                    row(20, "r2", "a", 10))));
    ScanRead read = read(new BytePage(1 << 20, Long.MAX_VALUE), ReadBudget.NONE);

    boolean stopped = join(read.rows(pages::first));
    join(read.assemble(NS, new CqlItemReader(session, KvLimits.DEFAULT, 2).chunks()));
    ScanPage page = read.page(stopped);

    assertThat(items(page)).containsExactly("r1/a", "r1/b", "r2/a");
    assertThat(page.items().get(1).item().value()).isEqualTo(large);
    assertThat(page.bytes()).isEqualTo(2 * (2 + 1 + 10) + (2 + 1 + 2_500));
    assertThat(held).containsExactly(page.bytes() + 3 * ResponseBound.ITEM_OVERHEAD_BYTES);
    assertThat(session.count("CHUNK")).isEqualTo(3);
  }
}
