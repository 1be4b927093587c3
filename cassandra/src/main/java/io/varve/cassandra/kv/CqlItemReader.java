package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import io.varve.cassandra.cql.ConsistencyLevels;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.FetchSizes;
import io.varve.core.kv.ItemPage;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ValueParts;
import io.varve.core.read.ResponseMemory;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Reads one page of a record's items, in clustering order, into a {@link BytePage}, holding at most
 * {@link KvLimits#maxFetchBytes()} per CQL fetch whatever the data.
 *
 * <p>The fetch size comes from an estimate of the item size, which can be wrong by a factor of a
 * million (tiny items followed by 1 MiB ones). Rows with values are therefore asked for at most
 * {@link KvLimits#valueRowsPerFetch()} at a time (that many rows of the largest size fit the
 * bound). When the estimate wants more rows than that, or item sizes vary so much that a fetch
 * sized by the average would overshoot the page (the caller's {@code firstRows}), the first fetch
 * takes that many rows with their values (a small record is then read in one round trip); if the
 * page is not full yet, the reader reads the next keys and their sizes ({@code SELECT key,
 * value_metadata}: rows bounded by the key limit) to find exactly which rows fit the page, then
 * fetches those rows with their values. Items marked expired by a delete are skipped: they count as
 * fetched, not returned; so do the rows of a fetch left over once the page is full, which Cassandra
 * sent all the same.
 */
public final class CqlItemReader {

  private final CqlSession session;
  private final ItemStatements statements;
  private final KvLimits limits;
  private final ChunkedReads chunks;
  private final ValuePartReads parts;

  /**
   * @param chunkConcurrency chunks of one value read at once
   */
  public CqlItemReader(CqlSession session, KvLimits limits, int chunkConcurrency) {
    this.session = session;
    this.statements = new ItemStatements(session);
    this.limits = limits;
    CqlChunkStore chunkStore = new CqlChunkStore(session, statements, null);
    this.chunks = new ChunkedReads(this, chunkStore, chunkConcurrency);
    this.parts = new ValuePartReads(this, chunkStore, chunkConcurrency);
  }

  public CqlItemReader(CqlSession session, KvLimits limits) {
    this(session, limits, KvChunking.DEFAULT.writeConcurrency());
  }

  ChunkedReads chunks() {
    return chunks;
  }

  ValuePartReads parts() {
    return parts;
  }

  /**
   * Part {@code parts.index()} of a value returned in parts, from its pinned version ({@link
   * ValuePartReads}).
   */
  public CompletionStage<byte[]> part(
      KvNamespace ns, String id, byte[] key, ValueParts parts, ResponseMemory memory) {
    return this.parts.part(ns, id, key, parts, memory);
  }

  /** A scanner of whole namespaces by token range (ScanItems), under the same fetch bounds. */
  public CqlItemScanner scanner() {
    return new CqlItemScanner(session, limits, chunks());
  }

  /**
   * One page of a record's items. Chunked values are reassembled ({@link ChunkedReads}) only when
   * values are read: a keys-only read never touches the chunk table. Failures are not translated
   * here: {@link CqlItemStore} does it once per call.
   *
   * @param predicate the items to read, already narrowed to those after the previous page
   * @param values whether to read values (otherwise keys and metadata only)
   * @param wantedRows the rows the item-size estimate says fill the page
   * @param firstRows rows of the first fetch with values ({@link
   *     io.varve.core.kv.FetchSizes#firstFetch}), fewer than {@code wantedRows} when item sizes
   *     vary: the rest of the page is then planned by the sizes of its rows
   * @param raw values come as stored (compressed), each item saying how, for a client that
   *     signalled it decompresses them
   * @param budget when it stops the read, the page holds the items taken so far and {@link
   *     ItemPage#more()} is set ({@link ReadBudget#cutShort()} says why)
   * @param memory holds the page's keys and values once the page is known and before any chunk of a
   *     chunked value is read; when it has no room, the read fails RESOURCE_EXHAUSTED
   */
  public CompletionStage<ItemPage> read(
      KvNamespace ns,
      String id,
      ItemPredicate predicate,
      boolean values,
      int wantedRows,
      int firstRows,
      BytePage page,
      boolean raw,
      ReadBudget budget,
      ResponseMemory memory) {
    ItemRead read = new ItemRead(this, ns, id, values, page, raw, budget, memory);
    int bound = values ? limits.valueRowsPerFetch() : limits.keyRowsPerFetch();
    int first = values ? Math.min(bound, firstRows) : bound;
    CompletionStage<ItemPage> rows;
    if (wantedRows <= first) {
      rows = continued(read, ns, predicate, wantedRows, bound, page);
    } else {
      rows =
          read.collect(predicate, first, false)
              .thenCompose(
                  o ->
                      o.end() != RowStream.End.PAUSED
                          ? CompletableFuture.completedFuture(read.page(o))
                          : read.planned(
                              predicate.after(o.lastKey(), ns.order()),
                              Math.min(wantedRows, limits.keyRowsPerFetch())));
    }
    return rows.thenCompose(read::assembled);
  }

  /**
   * Takes one fetch of {@code fetchRows} rows; while the page is not full and rows are left, the
   * next fetch is a new query after the last key, sized by the bytes the page still takes and the
   * items seen so far, rather than the driver's next page of the same size: a fixed size that was
   * right for small items overshoots by most of a fetch once larger ones fill the page, and every
   * row Cassandra sends counts as read, taken or not.
   */
  private CompletionStage<ItemPage> continued(
      ItemRead read,
      KvNamespace ns,
      ItemPredicate predicate,
      int fetchRows,
      int bound,
      BytePage page) {
    return read.collect(predicate, fetchRows, false)
        .thenCompose(
            o -> {
              if (o.end() != RowStream.End.PAUSED) {
                return CompletableFuture.completedFuture(read.page(o));
              }
              int next =
                  page.items() == 0
                      ? fetchRows // only deleted items so far: nothing to size by
                      : Math.min(
                          bound,
                          FetchSizes.of(
                              page.remainingBytes(),
                              Math.max(1, page.bytes() / page.items()),
                              page.remainingItems()));
              ItemPredicate rest = predicate.after(o.lastKey(), ns.order());
              if (rest instanceof ItemPredicate.Keys k && k.keys().isEmpty()) {
                return CompletableFuture.completedFuture(
                    read.page(RowStream.Outcome.none(RowStream.End.EXHAUSTED)));
              }
              return continued(read, ns, rest, next, bound, page);
            });
  }

  /**
   * Runs the query of {@code predicate}'s rows, selecting {@code columns}, {@code fetchSize} rows
   * per fetch.
   */
  CompletionStage<AsyncResultSet> query(
      KvNamespace ns,
      String id,
      ItemPredicate predicate,
      ItemStatements.Columns columns,
      int fetchSize) {
    CompletionStage<BoundStatementBuilder> statement;
    if (predicate instanceof ItemPredicate.Keys keys) {
      List<ByteBuffer> bound = keys.keys().stream().map(ByteBuffer::wrap).toList();
      statement =
          statements
              .selectKeys(ns, columns)
              .thenApply(
                  p ->
                      p.boundStatementBuilder()
                          .setString(0, id)
                          .setList(1, bound, ByteBuffer.class));
    } else {
      KeyRange range = predicate instanceof ItemPredicate.Range r ? r.range() : KeyRange.ALL;
      statement = statements.selectRange(ns, range, columns).thenApply(p -> bind(p, id, range));
    }
    return execute(session, ns, statement, fetchSize);
  }

  /** Runs a read of {@code ns} at its consistency, {@code fetchSize} rows per fetch. */
  static CompletionStage<AsyncResultSet> execute(
      CqlSession session,
      KvNamespace ns,
      CompletionStage<BoundStatementBuilder> statement,
      int fetchSize) {
    return statement.thenCompose(
        s ->
            session.executeAsync(
                s.setPageSize(fetchSize)
                    .setConsistencyLevel(ConsistencyLevels.of(ns.consistency()))
                    .build()));
  }

  private static BoundStatementBuilder bind(PreparedStatement p, String id, KeyRange range) {
    BoundStatementBuilder b = p.boundStatementBuilder().setString(0, id);
    int i = 1;
    if (range.start().isPresent()) {
      b.setByteBuffer(i++, ByteBuffer.wrap(range.start().get()));
    }
    if (range.end().isPresent()) {
      b.setByteBuffer(i, ByteBuffer.wrap(range.end().get()));
    }
    return b;
  }
}
