package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.varve.core.error.VarveException;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ScanPage;
import io.varve.core.kv.ScanPosition;
import io.varve.core.kv.ScanSegment;
import io.varve.core.read.ResponseMemory;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * Reads one page of a namespace's items by token range: the records whose Murmur3 token lies in a
 * {@link ScanSegment}, in token order, each record's items in clustering order. A page resumes
 * after the position of the previous one — (token, id, key) — in three steps: the rest of that
 * record after the key; the other records of the same token that sort after it (tokens of distinct
 * ids collide, rarely; Cassandra orders such records by their key bytes); then the records of the
 * later tokens of the segment. So a scan resumed from every page token sees every item once.
 *
 * <p>Memory: each query asks for at most {@link KvLimits#valueRowsPerFetch()} rows with values
 * ({@link KvLimits#keyRowsPerFetch()} without) at a time, so one fetch holds at most {@code
 * kv.limits.maxFetchBytes}; a page reads at most {@link ScanRead#MAX_ROWS_PER_PAGE} rows. Items
 * marked expired by a delete are skipped, as GetItems skips them.
 */
public final class CqlItemScanner {

  private final CqlSession session;
  private final ScanStatements statements;
  private final KvLimits limits;

  private final ChunkedReads chunks;

  CqlItemScanner(CqlSession session, KvLimits limits, ChunkedReads chunks) {
    this.chunks = chunks;
    this.session = session;
    this.statements = new ScanStatements(new ItemStatements(session));
    this.limits = limits;
  }

  /**
   * @param after the previous page's position, null for a first page
   * @param wantedRows the rows the item-size estimate says fill the page (bounded here)
   * @param budget the time the page may take: when it stops the page, the page holds the items
   *     taken so far and {@link ScanPage#more()} is set ({@link ReadBudget#cutShort()} says why)
   * @param memory holds the page's ids, keys and values once the page is known and before any chunk
   *     of a chunked value is read; when it has no room, the scan fails RESOURCE_EXHAUSTED
   */
  public CompletionStage<ScanPage> scan(
      KvNamespace ns,
      ScanSegment segment,
      ScanPosition after,
      boolean values,
      int wantedRows,
      BytePage page,
      ReadBudget budget,
      ResponseMemory memory) {
    requireMurmur3();
    int fetch =
        Math.min(wantedRows, values ? limits.valueRowsPerFetch() : limits.keyRowsPerFetch());
    ScanRead read = new ScanRead(values, page, budget, memory);
    Function<Long, CompletionStage<Boolean>> tokens =
        first ->
            read.rows(
                () ->
                    run(
                        ns,
                        statements
                            .tokens(ns, values)
                            .thenApply(
                                p ->
                                    p.boundStatementBuilder()
                                        .setLong(0, first)
                                        .setLong(1, segment.last())),
                        fetch));
    if (after == null) {
      return tokens.apply(segment.first()).thenCompose(stopped -> page(ns, read, stopped));
    }
    return read.rows(() -> record(ns, values, after.id(), after.key(), fetch))
        .thenCompose(stopped -> stopped ? ended(true) : sameToken(ns, values, after, read, fetch))
        .thenCompose(
            stopped ->
                stopped || after.token() == segment.last()
                    ? ended(stopped)
                    : tokens.apply(after.token() + 1))
        .thenCompose(stopped -> page(ns, read, stopped));
  }

  /** The page read, its chunked values reassembled. */
  private CompletionStage<ScanPage> page(KvNamespace ns, ScanRead read, boolean stopped) {
    return read.assemble(ns, chunks).thenApply(v -> read.page(stopped));
  }

  /** The records of {@code after}'s token that Cassandra orders after its record, whole. */
  private CompletionStage<Boolean> sameToken(
      KvNamespace ns, boolean values, ScanPosition after, ScanRead read, int fetch) {
    byte[] lastId = after.id().getBytes(StandardCharsets.UTF_8);
    CompletionStage<List<String>> later =
        run(
                ns,
                statements
                    .sameToken(ns)
                    .thenApply(p -> p.boundStatementBuilder().setLong(0, after.token())),
                limits.keyRowsPerFetch())
            .thenApply(
                rs -> {
                  List<String> ids = new ArrayList<>();
                  rs.currentPage().forEach(row -> ids.add(row.getString(0)));
                  ids.removeIf(
                      id -> KeyRange.compare(id.getBytes(StandardCharsets.UTF_8), lastId) <= 0);
                  ids.sort(
                      (a, b) ->
                          KeyRange.compare(
                              a.getBytes(StandardCharsets.UTF_8),
                              b.getBytes(StandardCharsets.UTF_8)));
                  return ids;
                });
    return later.thenCompose(ids -> records(ns, values, ids, 0, read, fetch));
  }

  private CompletionStage<Boolean> records(
      KvNamespace ns, boolean values, List<String> ids, int i, ScanRead read, int fetch) {
    if (i == ids.size()) {
      return ended(false);
    }
    return read.rows(() -> record(ns, values, ids.get(i), null, fetch))
        .thenCompose(
            stopped -> stopped ? ended(true) : records(ns, values, ids, i + 1, read, fetch));
  }

  /** The rows of record {@code id}, all or (with {@code afterKey}) those after that key. */
  private CompletionStage<AsyncResultSet> record(
      KvNamespace ns, boolean values, String id, byte[] afterKey, int fetch) {
    return run(
        ns,
        statements
            .record(ns, values, afterKey != null)
            .thenApply(
                p -> {
                  BoundStatementBuilder b = p.boundStatementBuilder().setString(0, id);
                  return afterKey == null ? b : b.setByteBuffer(1, ByteBuffer.wrap(afterKey));
                }),
        fetch);
  }

  private CompletionStage<AsyncResultSet> run(
      KvNamespace ns, CompletionStage<BoundStatementBuilder> statement, int fetch) {
    return CqlItemReader.execute(session, ns, statement, fetch);
  }

  /**
   * Segments are shares of the Murmur3 ring (tokens are longs); another partitioner's tokens are of
   * another type and order, so a scan there is refused rather than answered wrong.
   */
  private void requireMurmur3() {
    session
        .getMetadata()
        .getTokenMap()
        .map(TokenMap::getPartitionerName)
        .filter(name -> !name.endsWith("Murmur3Partitioner"))
        .ifPresent(
            name -> {
              throw new VarveException(
                  VarveException.Kind.FAILED_PRECONDITION,
                  "ScanItems needs the cluster's partitioner to be Murmur3Partitioner; it is "
                      + name);
            });
  }

  private static CompletionStage<Boolean> ended(boolean stopped) {
    return CompletableFuture.completedFuture(stopped);
  }
}
