package io.varve.cassandra.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.cassandra.kv.FakeResults.Column;
import io.varve.cassandra.kv.FakeResults.Columns;
import io.varve.cassandra.kv.FakeResults.FakeRow;
import io.varve.cassandra.kv.FakeResults.Pages;
import io.varve.core.error.VarveException;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.slo.ReadDeadline;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A stream of item rows over driver pages (faked: the driver's result interfaces, no Cassandra):
 * where it ends and why, what it reports of the fetches, and how a read budget stops it.
 */
class RowStreamTest {

  /** The columns of a query of keys and metadata ({@link ItemStatements.Columns#METADATA}). */
  static final Columns METADATA =
      new Columns(
          new Column("key", DataTypes.BLOB),
          new Column("value_metadata", DataTypes.BLOB),
          new Column("writetime(value_metadata)", DataTypes.BIGINT));

  /** The columns of a query of values ({@link ItemStatements.Columns#VALUES}). */
  static final Columns VALUES =
      new Columns(
          new Column("key", DataTypes.BLOB),
          new Column("value", DataTypes.BLOB),
          new Column("writetime(value)", DataTypes.BIGINT));

  static final long SECOND = 1_000_000_000L;

  /** Readings of the test's clock, in nanoseconds. */
  private final AtomicLong now = new AtomicLong();

  private final ManualTimers timers = new ManualTimers();

  /** Keys the visitor was handed, in order. */
  private final List<String> visited = new ArrayList<>();

  static ByteBuffer utf8(String s) {
    return ByteBuffer.wrap(s.getBytes(StandardCharsets.UTF_8));
  }

  static ByteBuffer bigint(long v) {
    return TypeCodecs.BIGINT.encodePrimitive(v, ProtocolVersion.DEFAULT);
  }

  static String string(byte[] bytes) {
    return bytes == null ? null : new String(bytes, StandardCharsets.UTF_8);
  }

  /** A row with its value of {@code valueBytes} bytes, written at 7. */
  static Row valueRow(String key, int valueBytes) {
    byte[] metadata =
        ValueMetadata.inline("t", valueBytes, ValueMetadata.Compression.NONE).encode();
    return new FakeRow(
        VALUES,
        utf8(key),
        ValueMetadata.frame(metadata, ByteBuffer.wrap(new byte[valueBytes])),
        bigint(7));
  }

  /** The bytes of every cell of a row of {@link #valueRow}: what Cassandra sends of it. */
  static long valueRowBytes(String key, int valueBytes) {
    return key.length()
        + ValueMetadata.inline("t", valueBytes, ValueMetadata.Compression.NONE).encode().length
        + valueBytes
        + 8;
  }

  static Row metadataRow(String key, ValueMetadata metadata) {
    return new FakeRow(METADATA, utf8(key), ByteBuffer.wrap(metadata.encode()), bigint(7));
  }

  static <T> T join(CompletionStage<T> stage) {
    return stage.toCompletableFuture().join();
  }

  /** A budget whose deadline is at 0.9 s on the test clock (a max of 1 s, less the margin). */
  private ReadBudget budget() {
    return ReadBudget.of(
        ReadDeadline.of(0, Duration.ofSeconds(1), Long.MAX_VALUE, now::get),
        Long.MAX_VALUE,
        timers,
        () -> {});
  }

  /** Takes every row, as a read that keeps its items does. */
  private RowStream.Visitor taking(ReadBudget budget) {
    return (key, metadata, row) -> {
      visited.add(string(key));
      budget.progressed();
      return true;
    };
  }

  @Test
  void follows_the_driver_pages_until_the_rows_run_out() {
    Pages pages =
        new Pages(
            VALUES,
            List.of(
                List.of(valueRow("a", 1), valueRow("b", 1)),
                List.of(valueRow("c", 1)),
                List.of(valueRow("d", 1), valueRow("e", 1))));

    RowStream.Outcome o = join(RowStream.run(pages.first(), true, taking(ReadBudget.NONE)));

    assertThat(o.end()).isEqualTo(RowStream.End.EXHAUSTED);
    assertThat(visited).containsExactly("a", "b", "c", "d", "e");
    assertThat(string(o.lastKey())).isEqualTo("e");
    assertThat(o.rowsReceived()).isEqualTo(5);
    assertThat(pages.fetched()).isEqualTo(3);
  }

  @Test
  void the_largest_fetch_is_every_cell_of_the_largest_driver_page_not_the_sum_of_the_pages() {
    Pages pages =
        new Pages(
            VALUES,
            List.of(
                List.of(valueRow("a", 100), valueRow("b", 100)),
                List.of(valueRow("c", 1000), valueRow("d", 10)),
                List.of(valueRow("e", 500))));

    RowStream.Outcome o = join(RowStream.run(pages.first(), true, taking(ReadBudget.NONE)));

    assertThat(o.largestFetchBytes())
        .isEqualTo(valueRowBytes("c", 1000) + valueRowBytes("d", 10))
        .isGreaterThan(2 * valueRowBytes("a", 100))
        .isGreaterThan(valueRowBytes("e", 500));
  }

  @Test
  void a_null_cell_counts_no_bytes_toward_the_fetch() {
    byte[] metadata = ValueMetadata.inline("t", 0, ValueMetadata.Compression.NONE).encode();
    Row noWriteTime =
        new FakeRow(VALUES, utf8("a"), ValueMetadata.frame(metadata, ByteBuffer.allocate(0)), null);

    RowStream.Outcome o =
        join(
            RowStream.run(
                new Pages(VALUES, List.of(List.of(noWriteTime))).first(),
                true,
                taking(ReadBudget.NONE)));

    assertThat(o.largestFetchBytes()).isEqualTo(1 + metadata.length);
  }

  @Test
  void a_visitor_that_stops_ends_the_stream_at_its_row_and_the_rest_of_the_page_is_counted() {
    Pages pages =
        new Pages(
            VALUES,
            List.of(
                List.of(valueRow("a", 10), valueRow("b", 10), valueRow("c", 10)),
                List.of(valueRow("d", 10))));

    RowStream.Outcome o =
        join(
            RowStream.run(
                pages.first(),
                true,
                (key, metadata, row) -> {
                  visited.add(string(key));
                  return !string(key).equals("b");
                }));

    assertThat(o.end()).isEqualTo(RowStream.End.STOPPED);
    assertThat(visited).containsExactly("a", "b");
    assertThat(string(o.lastKey())).isEqualTo("b");
    assertThat(o.rowsReceived()).as("rows Cassandra sent, taken or not").isEqualTo(3);
    assertThat(o.largestFetchBytes()).isEqualTo(3 * valueRowBytes("a", 10));
    assertThat(pages.fetched()).as("no page fetched after the stop").isEqualTo(1);
  }

  @Test
  void without_following_pages_the_stream_pauses_after_the_first_page_with_rows() {
    Pages pages =
        new Pages(
            VALUES,
            List.of(List.of(valueRow("a", 1), valueRow("b", 1)), List.of(valueRow("c", 1))));

    RowStream.Outcome o = join(RowStream.run(pages.first(), false, taking(ReadBudget.NONE)));

    assertThat(o.end()).isEqualTo(RowStream.End.PAUSED);
    assertThat(visited).containsExactly("a", "b");
    assertThat(string(o.lastKey())).isEqualTo("b");
    assertThat(pages.fetched()).isEqualTo(1);
  }

  @Test
  void without_following_pages_an_empty_driver_page_is_followed_to_the_first_rows() {
    Pages pages =
        new Pages(
            VALUES,
            List.of(List.of(), List.of(), List.of(valueRow("a", 1)), List.of(valueRow("b", 1))));

    RowStream.Outcome o = join(RowStream.run(pages.first(), false, taking(ReadBudget.NONE)));

    assertThat(o.end()).isEqualTo(RowStream.End.PAUSED);
    assertThat(visited).containsExactly("a");
    assertThat(o.rowsReceived()).isEqualTo(1);
    assertThat(pages.fetched()).isEqualTo(3);
  }

  @Test
  void a_query_without_rows_is_exhausted_with_no_last_key() {
    RowStream.Outcome o =
        join(
            RowStream.run(
                new Pages(VALUES, List.of(List.of())).first(), false, taking(ReadBudget.NONE)));

    assertThat(o.end()).isEqualTo(RowStream.End.EXHAUSTED);
    assertThat(o.lastKey()).isNull();
    assertThat(o.rowsReceived()).isZero();
    assertThat(o.largestFetchBytes()).isZero();
  }

  @Test
  void the_visitor_gets_each_rows_key_metadata_and_row() {
    ValueMetadata chunked =
        ValueMetadata.chunked(
            "tok", 5_000_000, ValueMetadata.Compression.ZSTD, 3, 1 << 20, 2_500_000, 42);
    ValueMetadata expired = ValueMetadata.expired("gone");
    List<ValueMetadata> seen = new ArrayList<>();
    List<Long> writeTimes = new ArrayList<>();

    join(
        RowStream.run(
            new Pages(
                    METADATA,
                    List.of(List.of(metadataRow("a", chunked), metadataRow("b", expired))))
                .first(),
            true,
            (key, metadata, row) -> {
              visited.add(string(key));
              seen.add(metadata);
              writeTimes.add(RowStream.bigint(row, 2));
              return true;
            }));

    assertThat(visited).containsExactly("a", "b");
    assertThat(seen).containsExactly(chunked, expired);
    assertThat(writeTimes).containsExactly(7L, 7L);
  }

  @Test
  void a_rows_metadata_is_the_one_in_front_of_its_value_whatever_the_metadata_cell_holds() {
    // two writes of one key at the same timestamp: Cassandra may keep the metadata cell of one
    // beside the value cell of the other; the value's own metadata is the one that describes it
    Columns both =
        new Columns(
            new Column("key", DataTypes.BLOB),
            new Column("value_metadata", DataTypes.BLOB),
            new Column("value", DataTypes.BLOB));
    ValueMetadata ofValue = ValueMetadata.inline("value", 3, ValueMetadata.Compression.NONE);
    ValueMetadata other = ValueMetadata.inline("other", 1000, ValueMetadata.Compression.ZSTD);
    Row row =
        new FakeRow(
            both,
            utf8("a"),
            ByteBuffer.wrap(other.encode()),
            ValueMetadata.frame(ofValue.encode(), utf8("abc")));
    List<ValueMetadata> seen = new ArrayList<>();

    join(
        RowStream.run(
            new Pages(both, List.of(List.of(row))).first(),
            true,
            (key, metadata, r) -> seen.add(metadata)));

    assertThat(seen).containsExactly(ofValue);
  }

  @Test
  void a_row_without_metadata_varve_can_read_fails_the_read_naming_its_key() {
    Row foreign = new FakeRow(METADATA, utf8("k1"), ByteBuffer.wrap(new byte[] {9}), bigint(1));

    assertThatThrownBy(
            () ->
                join(
                    RowStream.run(
                        new Pages(METADATA, List.of(List.of(foreign))).first(),
                        true,
                        taking(ReadBudget.NONE))))
        .isInstanceOf(CompletionException.class)
        .cause()
        .isInstanceOfSatisfying(
            VarveException.class, e -> assertThat(e.kind()).isEqualTo(VarveException.Kind.INTERNAL))
        .hasMessageContaining("the item of key 0x6b31 cannot be read")
        .hasMessageContaining("unknown version")
        .hasMessageContaining("written outside Varve");
    assertThat(visited).isEmpty();
  }

  @Test
  void a_long_key_without_readable_metadata_is_named_by_its_first_64_bytes() {
    byte[] key = new byte[100];
    Arrays.fill(key, (byte) 0xab);
    Row foreign = new FakeRow(METADATA, ByteBuffer.wrap(key), null, bigint(1));

    assertThatThrownBy(
            () ->
                join(
                    RowStream.run(
                        new Pages(METADATA, List.of(List.of(foreign))).first(),
                        true,
                        taking(ReadBudget.NONE))))
        .cause()
        .hasMessageContaining("key 0x" + "ab".repeat(64) + "... cannot be read")
        .hasMessageContaining("value_metadata missing");
  }

  @Test
  void a_budget_past_its_deadline_stops_the_stream_before_the_next_fetch() {
    ReadBudget budget = budget();
    Pages pages =
        new Pages(
            VALUES,
            List.of(List.of(valueRow("a", 1), valueRow("b", 1)), List.of(valueRow("c", 1))));

    RowStream.Outcome o =
        join(
            RowStream.run(
                pages.first(),
                true,
                budget,
                (key, metadata, row) -> {
                  visited.add(string(key));
                  budget.progressed();
                  now.set(SECOND); // the deadline passes while the first page is read
                  return true;
                }));

    assertThat(o.end()).isEqualTo(RowStream.End.CUT);
    assertThat(visited).containsExactly("a", "b");
    assertThat(string(o.lastKey())).isEqualTo("b");
    assertThat(o.rowsReceived()).isEqualTo(2);
    assertThat(pages.fetched()).as("the next page is not fetched").isEqualTo(1);
    assertThat(budget.cutShort()).as("the page is partial").isTrue();
  }

  @Test
  void a_budget_before_its_deadline_lets_the_stream_follow_every_page() {
    ReadBudget budget = budget();
    Pages pages =
        new Pages(
            VALUES,
            List.of(List.of(valueRow("a", 1), valueRow("b", 1)), List.of(valueRow("c", 1))));
    now.set(SECOND / 2);

    RowStream.Outcome o = join(RowStream.run(pages.first(), true, budget, taking(budget)));

    assertThat(o.end()).isEqualTo(RowStream.End.EXHAUSTED);
    assertThat(visited).containsExactly("a", "b", "c");
    assertThat(budget.cutShort()).isFalse();
  }

  @Test
  void a_read_that_has_taken_no_item_yet_goes_on_past_its_deadline() {
    ReadBudget budget = budget();
    Pages pages =
        new Pages(
            VALUES,
            List.of(List.of(valueRow("a", 1)), List.of(valueRow("b", 1), valueRow("c", 1))));
    now.set(SECOND);

    RowStream.Outcome o =
        join(
            RowStream.run(
                pages.first(),
                true,
                budget,
                (key, metadata, row) -> {
                  visited.add(string(key));
                  return true; // skipped (an expired item, say): no progress
                }));

    assertThat(o.end()).isEqualTo(RowStream.End.EXHAUSTED);
    assertThat(visited).containsExactly("a", "b", "c");
    assertThat(pages.fetched()).isEqualTo(2);
  }

  @Test
  void a_fetch_in_flight_at_the_deadline_is_cancelled_and_the_stream_ends_cut_with_its_rows() {
    ReadBudget budget = budget();
    CompletableFuture<AsyncResultSet> inFlight = new CompletableFuture<>();
    Pages pages =
        new Pages(VALUES, List.of(List.of(valueRow("a", 1), valueRow("b", 1))))
            .then(() -> inFlight);

    CompletionStage<RowStream.Outcome> stream =
        RowStream.run(pages.first(), true, budget, taking(budget));
    assertThat(stream.toCompletableFuture()).as("waiting for the second page").isNotDone();
    timers.fire(); // the deadline's timer

    RowStream.Outcome o = join(stream);
    assertThat(inFlight).isCancelled();
    assertThat(o.end()).isEqualTo(RowStream.End.CUT);
    assertThat(string(o.lastKey())).isEqualTo("b");
    assertThat(o.rowsReceived()).isEqualTo(2);
    assertThat(budget.cutShort()).isTrue();
  }

  @Test
  void a_fetch_that_fails_fails_the_stream_when_the_budget_did_not_cut_it() {
    ReadBudget budget = budget();
    Pages pages =
        new Pages(VALUES, List.of(List.of(valueRow("a", 1))))
            .then(() -> CompletableFuture.failedFuture(new IllegalStateException("node down")));

    assertThatThrownBy(() -> join(RowStream.run(pages.first(), true, budget, taking(budget))))
        .isInstanceOf(CompletionException.class)
        .hasRootCauseInstanceOf(IllegalStateException.class)
        .hasRootCauseMessage("node down");
    assertThat(visited).containsExactly("a");
  }

  @Test
  void a_budget_whose_caller_gave_up_fetches_no_further_page() {
    ReadBudget budget = budget();
    Pages pages =
        new Pages(
            VALUES,
            List.of(List.of(valueRow("a", 1), valueRow("b", 1)), List.of(valueRow("c", 1))));

    RowStream.Outcome o =
        join(
            RowStream.run(
                pages.first(),
                true,
                budget,
                (key, metadata, row) -> {
                  visited.add(string(key));
                  budget.cancel(); // the caller's deadline passed, or it cancelled
                  return true;
                }));

    assertThat(o.end()).isEqualTo(RowStream.End.CUT);
    assertThat(pages.fetched()).isEqualTo(1);
    assertThat(budget.cancelledFetches()).as("the next fetch, refused").isEqualTo(1);
    assertThat(budget.cutShort()).as("not a partial page: the call is over").isFalse();
  }

  @Test
  void a_cell_is_copied_from_its_position_without_moving_the_drivers_buffer() {
    ByteBuffer cell = utf8("xxabc");
    cell.position(2);

    assertThat(string(RowStream.bytes(cell))).isEqualTo("abc");
    assertThat(cell.position()).isEqualTo(2);
    assertThat(RowStream.bytes(null)).isEmpty();
  }
}
