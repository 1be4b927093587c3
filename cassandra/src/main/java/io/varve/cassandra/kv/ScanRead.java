package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ScanPage;
import io.varve.core.kv.ScanPosition;
import io.varve.core.kv.ScannedItem;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.read.ResponseMemory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * The state of one scan page read by {@link CqlItemScanner}: the items taken, the position of the
 * last row consumed (taken, or skipped as expired) and what it cost. Rows come from {@link
 * ScanStatements}' queries: key, [value,] value_metadata, write time, id, token.
 */
final class ScanRead {

  /**
   * Most rows one page reads, taken or skipped: a segment of deleted items, or of tiny ones, still
   * answers in bounded time, with a page token.
   */
  static final int MAX_ROWS_PER_PAGE = 100_000;

  private static final byte[] NONE = new byte[0];

  /** An item of the page whose value is in chunks, to be reassembled once the page is read. */
  private record Chunked(int index, ValueMetadata metadata, long generation) {}

  private final boolean values;
  private final BytePage page;
  private final List<ScannedItem> items = new ArrayList<>();
  private final List<Chunked> chunked = new ArrayList<>();
  private ScanPosition last;
  private long fetched;
  private long rows;
  private final ReadBudget budget;
  private final ResponseMemory memory;
  private final PageMemory held;
  private boolean paused;
  private boolean valueLeftOut;

  /**
   * @param budget the time the page may take: once a row was consumed, it may stop the page (with a
   *     position to resume from) before the next fetch or cancel the one in flight
   * @param memory what holds the page's bytes before its chunked values are read
   */
  ScanRead(boolean values, BytePage page, ReadBudget budget, ResponseMemory memory) {
    this.values = values;
    this.page = page;
    this.budget = budget;
    this.memory = memory;
    this.held = new PageMemory(memory);
  }

  /**
   * Takes the rows of the query {@code start} runs into the page; true when the page stopped taking
   * rows. The query is not started when the budget refuses it.
   */
  CompletionStage<Boolean> rows(Supplier<CompletionStage<AsyncResultSet>> start) {
    if (!budget.mayFetch()) {
      paused = true;
      return CompletableFuture.completedFuture(true);
    }
    return RowStream.run(budget.track(start.get()), true, budget, this::visit)
        .thenApply(
            o -> {
              fetched += o.rowsReceived();
              if (o.end() == RowStream.End.CUT) {
                paused = true;
                return true;
              }
              return o.end() == RowStream.End.STOPPED;
            });
  }

  private boolean visit(byte[] key, ValueMetadata metadata, Row row) {
    if (rows >= MAX_ROWS_PER_PAGE) {
      paused = true;
      return false;
    }
    rows++;
    budget.progressed(); // a row consumed, taken or skipped: the page has a position to resume from
    int column = 2; // the write time; id and token follow
    String id = row.getString(column + 1);
    ScanPosition here = new ScanPosition(RowStream.bigint(row, column + 2), id, key);
    if (metadata.expired()) {
      last = here;
      return true;
    }
    // a chunked value is read once the page is known: the row holds only its metadata
    boolean later = values && metadata.isChunked();
    byte[] value =
        values && !later ? ItemRead.value(RowStream.blob(row, 1), metadata, false) : NONE;
    if (!page.offer(
        key,
        (long) id.getBytes(StandardCharsets.UTF_8).length
            + key.length
            + (later ? metadata.valueSize() : value.length))) {
      return false;
    }
    if (page.inParts()) {
      // fits no message: the client reads it in parts by GetItems (ScanItemsResponse's contract)
      valueLeftOut = true;
      value = NONE;
    } else if (later) {
      chunked.add(new Chunked(items.size(), metadata, RowStream.bigint(row, column)));
    }
    items.add(
        new ScannedItem(
            id,
            here.token(),
            new KvItem(key, value, metadata.valueSize(), RowStream.bigint(row, column))));
    last = here;
    if (!page.inParts()) {
      held.arrived(page.bytes(), items.size());
    }
    return !page.done(); // at the item limit; a full page is only known by the next item refused
  }

  /**
   * Reads the chunked values of the page's items, one value after the other (each value's chunks in
   * parallel); an item deleted meanwhile is left out. The page's bytes are held in the response
   * memory first (what its rows did not hold as they arrived: {@link PageMemory}), so a scan that
   * has no room is refused before it fetches a chunk.
   */
  CompletionStage<Void> assemble(KvNamespace ns, ChunkedReads chunks) {
    held.known(valueLeftOut ? 0 : page.bytes(), items.size());
    CompletionStage<Void> done = CompletableFuture.completedFuture(null);
    for (Chunked c : chunked) {
      done =
          done.thenCompose(
              v -> {
                ScannedItem scanned = items.get(c.index());
                return chunks
                    .value(
                        ns,
                        scanned.id(),
                        scanned.item().key(),
                        c.metadata(),
                        c.generation(),
                        false,
                        memory)
                    .thenAccept(
                        item ->
                            items.set(
                                c.index(),
                                item == null
                                    ? null
                                    : new ScannedItem(scanned.id(), scanned.token(), item)));
              });
    }
    return done.thenRun(() -> items.removeIf(java.util.Objects::isNull));
  }

  /** The page once reading ended; {@code stopped}: it ended before the segment's rows ran out. */
  ScanPage page(boolean stopped) {
    boolean more = stopped && (paused || page.more()) && last != null;
    return new ScanPage(items, more, last, fetched, page.bytes(), valueLeftOut);
  }
}
