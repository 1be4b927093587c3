package io.varve.cassandra.kv;

import io.varve.cassandra.events.ValueCodec;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.FetchSizes;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ValueMetadata;
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
  private final ReadBudget budget;
  private final List<KvItem> items = new ArrayList<>();
  private long fetched;
  private long planned;
  private long largestFetchBytes;

  ItemRead(
      CqlItemReader reader,
      KvNamespace ns,
      String id,
      boolean values,
      BytePage page,
      ReadBudget budget) {
    this.reader = reader;
    this.budget = budget;
    this.ns = ns;
    this.id = id;
    this.values = values;
    this.page = page;
  }

  /** Takes the rows of {@code predicate} into the page, {@code fetchSize} rows per fetch. */
  CompletionStage<RowStream.Outcome> collect(
      ItemPredicate predicate, int fetchSize, boolean followPages) {
    if (!budget.mayFetch()) {
      return CompletableFuture.completedFuture(new RowStream.Outcome(RowStream.End.CUT, null, 0));
    }
    return observed(
        RowStream.run(
            budget.track(reader.query(ns, id, predicate, values, fetchSize)),
            followPages,
            budget,
            (key, metadata, row) -> {
              fetched++;
              if (metadata.expired()) {
                return true;
              }
              byte[] value = values ? value(row.getByteBuffer(1), metadata) : NONE;
              if (!page.offer(key.length + value.length)) {
                return false;
              }
              items.add(new KvItem(key, value, metadata.valueSize(), row.getLong(values ? 3 : 2)));
              budget.progressed();
              return !page
                  .done(); // at the item limit; a full page is only known by the next item refused
            }));
  }

  private CompletionStage<RowStream.Outcome> observed(CompletionStage<RowStream.Outcome> outcome) {
    return outcome.thenApply(
        o -> {
          largestFetchBytes = Math.max(largestFetchBytes, o.largestFetchBytes());
          return o;
        });
  }

  /**
   * Reads the keys and sizes of {@code rest} to find the rows that fit the rest of the page, then
   * takes exactly those rows with their values.
   */
  CompletionStage<CqlItemReader.Page> planned(ItemPredicate rest, int keyFetchSize) {
    if (rest instanceof ItemPredicate.Keys k && k.keys().isEmpty()) {
      return CompletableFuture.completedFuture(result(false));
    }
    if (!budget.mayFetch()) {
      return CompletableFuture.completedFuture(result(true));
    }
    BytePage plan = page.copy();
    List<byte[]> keys = new ArrayList<>();
    return observed(
            RowStream.run(
                budget.track(reader.query(ns, id, rest, false, keyFetchSize)),
                true,
                budget,
                (key, metadata, row) -> {
                  planned++;
                  if (metadata.expired()) {
                    return true;
                  }
                  if (!plan.offer(key.length + metadata.valueSize())) {
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
  CqlItemReader.Page page(RowStream.Outcome outcome) {
    return result(
        switch (outcome.end()) {
          case STOPPED -> page.more();
          case EXHAUSTED -> false;
          case PAUSED, CUT -> true;
        });
  }

  private CqlItemReader.Page result(boolean more) {
    return new CqlItemReader.Page(items, more, fetched, planned, page.bytes(), largestFetchBytes);
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

  private static byte[] value(ByteBuffer stored, ValueMetadata metadata) {
    return metadata.compression() == ValueMetadata.Compression.ZSTD
        ? ValueCodec.decode(stored, ValueCodec.ZSTD, 0, 0)
        : RowStream.bytes(stored);
  }
}
