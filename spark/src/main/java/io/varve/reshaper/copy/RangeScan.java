package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.reshaper.plan.TokenRange;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The source rows of one token range, in token order (so the rows of a partition come together).
 * The next page is requested as soon as the current one arrives, so reading overlaps the work done
 * on each page. Pages hold at most {@code fetchSize} rows and about {@value #PAGE_BYTES} bytes:
 * when a page's rows are large, the next page asks for fewer rows. Not thread-safe.
 */
public final class RangeScan implements Iterator<Row> {
  /** The size a page is kept near, whatever the size of the rows. */
  static final int PAGE_BYTES = 4 << 20;

  private static final int MIN_PAGE_ROWS = 10;

  private final CqlSession session;
  private final BoundStatement statement;
  private final ConsistencyLevel consistency;
  private final int fetchSize;
  private int pageRows;
  private Iterator<Row> rows;
  private CompletionStage<AsyncResultSet> next;

  RangeScan(
      CqlSession session,
      PreparedStatement select,
      TokenRange range,
      int fetchSize,
      String consistency) {
    this(session, select.bind(range.start(), range.end()), fetchSize, consistency);
    hasNext(); // the first page read now: a failure to start shows here
  }

  /**
   * The rows of {@code statement}, bound to every value but its paging: a token range, or a
   * partition and an interval of a slice table (the data sources of namespaces). The first page is
   * asked for now and awaited by the first {@link #hasNext}: a reader may start the next scans
   * while it consumes this one.
   */
  public RangeScan(
      CqlSession session, BoundStatement statement, int fetchSize, String consistency) {
    this.session = session;
    this.statement = statement;
    this.consistency = DefaultConsistencyLevel.valueOf(consistency);
    this.fetchSize = fetchSize;
    this.pageRows = fetchSize;
    this.rows = java.util.Collections.emptyIterator();
    this.next = session.executeAsync(page(null));
  }

  private BoundStatement page(ByteBuffer pagingState) {
    return statement
        .setPagingState(pagingState)
        .setPageSize(pageRows)
        .setConsistencyLevel(consistency)
        .setIdempotent(true);
  }

  private void accept(AsyncResultSet result) {
    next = null;
    if (result.hasMorePages()) {
      int size =
          nextPageRows(
              result.getExecutionInfo().getResponseSizeInBytes(),
              result.remaining(),
              fetchSize,
              pageRows);
      if (size == pageRows) {
        next = result.fetchNextPage();
      } else {
        pageRows = size;
        next = session.executeAsync(page(result.getExecutionInfo().getPagingState()));
      }
    }
    rows = result.currentPage().iterator();
  }

  /**
   * The rows to ask for in the next page, given the size of the page just read: as many as fit
   * {@value #PAGE_BYTES} bytes at its average row size, between {@value #MIN_PAGE_ROWS} and {@code
   * fetchSize}; {@code current} when the page says nothing of its size.
   */
  static int nextPageRows(int pageBytes, int pageRows, int fetchSize, int current) {
    if (pageBytes <= 0 || pageRows <= 0) {
      return current;
    }
    long perRow = Math.max(1, pageBytes / pageRows);
    return (int) Math.min(fetchSize, Math.max(MIN_PAGE_ROWS, PAGE_BYTES / perRow));
  }

  @Override
  public boolean hasNext() {
    while (!rows.hasNext()) {
      if (next == null) {
        return false;
      }
      accept(await(next));
    }
    return true;
  }

  @Override
  public Row next() {
    if (!hasNext()) {
      throw new NoSuchElementException();
    }
    return rows.next();
  }

  private static AsyncResultSet await(CompletionStage<AsyncResultSet> stage) {
    try {
      return stage.toCompletableFuture().join();
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
  }
}
