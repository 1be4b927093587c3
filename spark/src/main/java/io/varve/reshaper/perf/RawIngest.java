package io.varve.reshaper.perf;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import java.time.Instant;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes the users' case rows with the plainest fast client: prepared inserts, one unlogged
 * batch per partition (10 rows), 256 requests in flight, LOCAL_QUORUM. Partner {@code p} has
 * 5 ids seen at 2 hours each, so the compact reshape halves the rows.
 */
final class RawIngest {
  static final int ROWS_PER_PARTITION = 10;
  private static final int IN_FLIGHT = 256;

  private RawIngest() {}

  /** Writes {@code rows} rows to {@code table}; returns the seconds it took. */
  static double write(CqlSession session, String table, int rows) {
    PreparedStatement insert = session.prepare("INSERT INTO " + table
        + " (partnerid, id, date) VALUES (?, ?, ?)");
    Semaphore inFlight = new Semaphore(IN_FLIGHT);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    long base = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
    long start = System.nanoTime();
    for (int first = 0; first < rows; first += ROWS_PER_PARTITION) {
      int partner = first / ROWS_PER_PARTITION;
      BatchStatement batch = BatchStatement.newInstance(BatchType.UNLOGGED);
      for (int k = first; k < Math.min(rows, first + ROWS_PER_PARTITION); k++) {
        int slot = k - first;
        long hour = (partner * 7919L + slot * 104_729L) % (24 * 365);
        batch = batch.add(insert.bind("partner-" + partner, "id-" + slot / 2,
            Instant.ofEpochMilli(base + hour * 3_600_000L + slot % 2)));
      }
      inFlight.acquireUninterruptibly();
      session.executeAsync(batch.setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
          .setIdempotent(true)).whenComplete((r, e) -> {
            if (e != null) {
              failure.compareAndSet(null, e);
            }
            inFlight.release();
          });
      if (failure.get() != null) {
        throw new IllegalStateException("ingest into " + table + " failed", failure.get());
      }
    }
    inFlight.acquireUninterruptibly(IN_FLIGHT);
    inFlight.release(IN_FLIGHT);
    if (failure.get() != null) {
      throw new IllegalStateException("ingest into " + table + " failed", failure.get());
    }
    return (System.nanoTime() - start) / 1e9;
  }
}
