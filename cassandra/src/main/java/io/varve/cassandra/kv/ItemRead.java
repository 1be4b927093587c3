package io.varve.cassandra.kv;

import io.varve.core.kv.BytePage;
import io.varve.core.kv.FetchSizes;
import io.varve.core.kv.ItemPage;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.read.ResponseMemory;
import io.varve.format.ItemValues;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/** The state of one page read by {@link CqlItemReader}: the items taken so far and what it cost. */
final class ItemRead {

  private static final byte[] NONE = new byte[0];

  private final CqlItemReader reader;
  private final KvNamespace ns;
  private final String id;
  private final boolean values;
  private final BytePage page;
  private final boolean raw;
  private final ReadBudget budget;
  private final ResponseMemory memory;
  private final PageMemory held;
  private final List<KvItem> items = new ArrayList<>();
  private final List<Chunked> chunked = new ArrayList<>();
  private ValueMetadata parted;
  private long fetched;
  private long planned;
  private long largestFetchBytes;

  /** An item of the page whose value is in chunks, to be reassembled once the page is read. */
  private record Chunked(int index, ValueMetadata metadata, long generation) {}

  /**
   * @param raw whether values are returned as stored (compressed), for a client that said it
   *     decompresses them
   * @param budget the time the read may take (a page cut short keeps the items taken so far)
   * @param memory what holds the page's keys and values before they are assembled
   */
  ItemRead(
      CqlItemReader reader,
      KvNamespace ns,
      String id,
      boolean values,
      BytePage page,
      boolean raw,
      ReadBudget budget,
      ResponseMemory memory) {
    this.reader = reader;
    this.budget = budget;
    this.memory = memory;
    this.held = new PageMemory(memory);
    this.ns = ns;
    this.id = id;
    this.values = values;
    this.page = page;
    this.raw = raw;
  }

  /** Takes the rows of {@code predicate} into the page, {@code fetchSize} rows per fetch. */
  CompletionStage<RowStream.Outcome> collect(
      ItemPredicate predicate, int fetchSize, boolean followPages) {
    if (!budget.mayFetch()) {
      return CompletableFuture.completedFuture(RowStream.Outcome.none(RowStream.End.CUT));
    }
    return observed(
        false,
        RowStream.run(
            budget.track(
                reader.query(
                    ns,
                    id,
                    predicate,
                    values ? ItemStatements.Columns.VALUES : ItemStatements.Columns.METADATA,
                    fetchSize)),
            followPages,
            budget,
            (key, metadata, row) -> {
              if (metadata.expired()) {
                return true;
              }
              // a chunked value is read once the page is known: the row holds only its metadata
              boolean later = values && metadata.isChunked();
              byte[] value = values && !later ? value(RowStream.blob(row, 1), metadata) : NONE;
              long generation = RowStream.bigint(row, 2);
              if (!page.offer(key, key.length + (later ? returnedSize(metadata) : value.length))) {
                return false;
              }
              if (page.inParts()) {
                parted = metadata; // the page's one item: its first part is read once it is known
              } else if (later) {
                chunked.add(new Chunked(items.size(), metadata, generation));
              }
              items.add(
                  new KvItem(
                      key,
                      value,
                      metadata.valueSize(),
                      generation,
                      raw && values ? metadata.compression() : ValueMetadata.Compression.NONE));
              budget.progressed();
              if (!page.inParts()) {
                held.arrived(page.bytes(), items.size());
              }
              return !page
                  .done(); // at the item limit; a full page is only known by the next item refused
            }));
  }

  /** Counts what a stream's fetches cost: as planning (keys and sizes) or as fetching. */
  private CompletionStage<RowStream.Outcome> observed(
      boolean planning, CompletionStage<RowStream.Outcome> outcome) {
    return outcome.thenApply(
        o -> {
          largestFetchBytes = Math.max(largestFetchBytes, o.largestFetchBytes());
          if (planning) {
            planned += o.rowsReceived();
          } else {
            fetched += o.rowsReceived();
          }
          return o;
        });
  }

  /**
   * Reads the keys and sizes of {@code rest} to find the rows that fit the rest of the page, then
   * takes exactly those rows with their values.
   */
  CompletionStage<ItemPage> planned(ItemPredicate rest, int keyFetchSize) {
    if (rest instanceof ItemPredicate.Keys k && k.keys().isEmpty()) {
      return CompletableFuture.completedFuture(result(false));
    }
    if (!budget.mayFetch()) {
      return CompletableFuture.completedFuture(result(true));
    }
    BytePage plan = page.copy();
    List<byte[]> keys = new ArrayList<>();
    return observed(
            true,
            RowStream.run(
                budget.track(
                    reader.query(ns, id, rest, ItemStatements.Columns.SIZES, keyFetchSize)),
                true,
                budget,
                (key, metadata, row) -> {
                  if (metadata.expired()) {
                    return true;
                  }
                  if (!plan.offer(key, key.length + (values ? returnedSize(metadata) : 0))) {
                    return false;
                  }
                  keys.add(key);
                  return !plan.done();
                }))
        .thenCompose(
            o -> {
              if (o.end() == RowStream.End.CUT) {
                return CompletableFuture.completedFuture(result(true));
              }
              if (keys.isEmpty()) {
                return CompletableFuture.completedFuture(result(plan.more()));
              }
              ItemPredicate exact =
                  rest instanceof ItemPredicate.Keys ? new ItemPredicate.Keys(keys) : span(keys);
              // the planned rows hold about the page's bytes; rows rewritten larger in between
              // still stop the page
              return collect(exact, Math.min(keys.size(), FetchSizes.MAX), true)
                  .thenApply(
                      end ->
                          result(
                              switch (end.end()) {
                                case STOPPED -> page.more();
                                case CUT -> true;
                                default -> plan.more();
                              }));
            });
  }

  /**
   * The page after one query: more follow when it was full (not at the item limit) or rows are left
   * unread.
   */
  ItemPage page(RowStream.Outcome outcome) {
    return result(
        switch (outcome.end()) {
          case STOPPED -> page.more();
          case EXHAUSTED -> false;
          case PAUSED, CUT -> true;
        });
  }

  private ItemPage result(boolean more) {
    return new ItemPage(items, more, fetched, planned, page.bytes(), largestFetchBytes);
  }

  private static ItemPredicate span(List<byte[]> keys) {
    byte[] first = keys.get(0);
    byte[] last = keys.get(keys.size() - 1);
    boolean ascending = KeyRange.compare(first, last) <= 0;
    return new ItemPredicate.Range(
        new KeyRange(
            Optional.of(ascending ? first : last),
            true,
            Optional.of(ascending ? last : first),
            true));
  }

  /**
   * The page with its chunked values reassembled, one value after the other (each value's chunks in
   * parallel): the page holds at most its byte bound, or its one large item. An item deleted
   * meanwhile is left out. The page's bytes are held in the response memory first (what its rows
   * did not hold as they arrived): a chunked value's size is known from its item row, so a read
   * that has no room is refused before it fetches a chunk.
   */
  CompletionStage<ItemPage> assembled(ItemPage read) {
    if (parted != null) {
      return firstPart(read);
    }
    held.known(read.bytes(), read.items().size());
    if (chunked.isEmpty()) {
      return CompletableFuture.completedFuture(read);
    }
    CompletionStage<Void> done = CompletableFuture.completedFuture(null);
    for (Chunked c : chunked) {
      done =
          done.thenCompose(
              v ->
                  reader
                      .chunks()
                      .value(
                          ns,
                          id,
                          items.get(c.index()).key(),
                          c.metadata(),
                          c.generation(),
                          raw,
                          memory)
                      .thenAccept(item -> items.set(c.index(), item)));
    }
    return done.thenApply(
        v -> {
          items.removeIf(java.util.Objects::isNull);
          return new ItemPage(
              items,
              read.more(),
              read.rowsFetched(),
              read.rowsPlanned(),
              read.bytes(),
              read.largestFetchBytes());
        });
  }

  /**
   * The page of one value returned in parts: its first part, and the parts pinned to its version.
   * An inline value was read whole with its row and is held as such; a chunked one holds what its
   * first part's read holds.
   */
  private CompletionStage<ItemPage> firstPart(ItemPage read) {
    KvItem item = items.get(0);
    if (!parted.isChunked()) {
      held.known(read.bytes(), read.items().size());
    }
    return reader
        .parts()
        .first(ns, id, item, parted, raw, page.bound().partBytes(item.key().length), memory)
        .thenApply(
            first ->
                new ItemPage(
                    List.of(first.item()),
                    true,
                    read.rowsFetched(),
                    read.rowsPlanned(),
                    read.bytes(),
                    read.largestFetchBytes(),
                    first.parts()));
  }

  /**
   * Bytes a value has as returned, from its row's metadata: a chunked one as stored for a client
   * that takes values as stored, as written otherwise (an inline value's stored size is not in its
   * metadata: its size as written bounds it).
   */
  private long returnedSize(ValueMetadata metadata) {
    return raw && metadata.isChunked() && metadata.compression() == ValueMetadata.Compression.ZSTD
        ? metadata.storedSize()
        : metadata.valueSize();
  }

  private byte[] value(ByteBuffer stored, ValueMetadata metadata) {
    return value(stored, metadata, raw);
  }

  /**
   * The value of a row that holds it (not chunked), from its {@code value} cell: as written, or as
   * stored when {@code raw}.
   */
  static byte[] value(ByteBuffer cell, ValueMetadata metadata, boolean raw) {
    return ItemValues.inline(cell, metadata, raw);
  }
}
