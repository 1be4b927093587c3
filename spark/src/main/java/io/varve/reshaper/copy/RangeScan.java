package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.reshaper.plan.TokenRange;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * The source rows of one token range, in token order (so the rows of a partition come
 * together). The next page is requested as soon as the current one arrives, so reading
 * overlaps the work done on each page. Not thread-safe.
 */
final class RangeScan implements Iterator<Row> {
  private AsyncResultSet page;
  private Iterator<Row> rows;
  private CompletionStage<AsyncResultSet> next;

  RangeScan(CqlSession session, PreparedStatement select, TokenRange range, int fetchSize,
      String consistency) {
    ConsistencyLevel cl = DefaultConsistencyLevel.valueOf(consistency);
    accept(await(session.executeAsync(select.bind(range.start(), range.end())
        .setPageSize(fetchSize).setConsistencyLevel(cl).setIdempotent(true))));
  }

  private void accept(AsyncResultSet result) {
    page = result;
    next = result.hasMorePages() ? result.fetchNextPage() : null;
    rows = result.currentPage().iterator();
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
