package io.varve.perf.migrate;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.reshaper.plan.TokenRange;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The plainest fast copy of the users' case table with the driver alone, the ceiling of any copy on
 * the node: {@code threads} threads take the ring's token ranges in turn, read each by pages of
 * 5000 rows, the reshaper's default {@code fetchSize} (the next page asked for as the current one
 * arrives), and write the rows back as they came, bytes for bytes, in unlogged batches of {@value
 * #PARTITIONS_PER_BATCH} consecutive partitions (the node is every partition's replica), 256
 * requests in flight, LOCAL_QUORUM, as {@link RawIngest}'s packed writer does. A failed batch fails
 * the copy.
 */
final class RawCopy {
  private static final int IN_FLIGHT = 256;
  private static final int PAGE_ROWS = 5000;
  private static final int PARTITIONS_PER_BATCH = 10;

  private RawCopy() {}

  /**
   * Copies the rows of {@code source} into {@code target} (both {@code keyspace.table} of the
   * users' case) over {@code ranges} token ranges; returns seconds.
   */
  static double copy(CqlSession session, String source, String target, int ranges, int threads) {
    PreparedStatement select =
        session.prepare(
            "SELECT partnerid, date, id FROM "
                + source
                + " WHERE token(partnerid) > ? AND token(partnerid) <= ?");
    PreparedStatement insert =
        session.prepare("INSERT INTO " + target + " (partnerid, date, id) VALUES (?, ?, ?)");
    List<TokenRange> todo = TokenRange.split(ranges);
    AtomicInteger next = new AtomicInteger();
    Semaphore inFlight = new Semaphore(IN_FLIGHT);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long start = System.nanoTime();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<?>> workers = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        workers.add(
            pool.submit(
                () -> {
                  for (int i; (i = next.getAndIncrement()) < todo.size(); ) {
                    copyRange(session, select, insert, todo.get(i), inFlight, failure);
                  }
                  return null;
                }));
      }
      for (Future<?> w : workers) {
        w.get();
      }
    } catch (ExecutionException e) {
      throw new IllegalStateException("raw copy into " + target + " failed", e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("raw copy into " + target + " interrupted", e);
    } finally {
      pool.shutdown();
    }
    inFlight.acquireUninterruptibly(IN_FLIGHT);
    inFlight.release(IN_FLIGHT);
    if (failure.get() != null) {
      throw new IllegalStateException("raw copy into " + target + " failed", failure.get());
    }
    return (System.nanoTime() - start) / 1e9;
  }

  private static void copyRange(
      CqlSession session,
      PreparedStatement select,
      PreparedStatement insert,
      TokenRange range,
      Semaphore inFlight,
      AtomicReference<Throwable> failure) {
    CompletionStage<AsyncResultSet> page =
        session.executeAsync(
            select
                .bind(range.start(), range.end())
                .setPageSize(PAGE_ROWS)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM));
    List<BatchableStatement<?>> batch = new ArrayList<>();
    ByteBuffer partition = null;
    int partitions = 0;
    while (page != null) {
      AsyncResultSet result = page.toCompletableFuture().join();
      page = result.hasMorePages() ? result.fetchNextPage() : null;
      for (Row row : result.currentPage()) {
        ByteBuffer key = row.getBytesUnsafe(0);
        if (!key.equals(partition)) {
          if (partitions == PARTITIONS_PER_BATCH) {
            send(session, batch, inFlight, failure);
            batch = new ArrayList<>();
            partitions = 0;
          }
          partition = key;
          partitions++;
        }
        BoundStatementBuilder b = insert.boundStatementBuilder();
        for (int c = 0; c < 3; c++) {
          b.setBytesUnsafe(c, row.getBytesUnsafe(c));
        }
        batch.add(b.build());
      }
    }
    if (!batch.isEmpty()) {
      send(session, batch, inFlight, failure);
    }
  }

  private static void send(
      CqlSession session,
      List<BatchableStatement<?>> statements,
      Semaphore inFlight,
      AtomicReference<Throwable> failure) {
    if (failure.get() != null) {
      throw new IllegalStateException("raw copy failed", failure.get());
    }
    inFlight.acquireUninterruptibly();
    session
        .executeAsync(
            BatchStatement.newInstance(BatchType.UNLOGGED)
                .addAll(statements)
                .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                .setIdempotent(true))
        .whenComplete(
            (r, e) -> {
              if (e != null) {
                failure.compareAndSet(null, e);
              }
              inFlight.release();
            });
  }
}
