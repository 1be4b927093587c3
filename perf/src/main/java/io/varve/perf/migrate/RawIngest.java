package io.varve.perf.migrate;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Writes rows with the plainest fast client: prepared inserts, one unlogged batch per partition (10
 * rows), 256 requests in flight, LOCAL_QUORUM; the users' case rows, or any table's ({@code perf
 * spark} writes slice-table rows with it). Partner {@code p} has 5 ids seen at 2 hours each, so the
 * compact reshape halves the rows. A failed batch is retried up to 3 times, as the reshaper's
 * writer retries. Optionally, batches pack several partitions that have the same replicas, as the
 * reshaper's writer does.
 */
public final class RawIngest {
  static final int ROWS_PER_PARTITION = 10;
  private static final int IN_FLIGHT = 256;
  private static final int RETRIES = 3;

  private RawIngest() {}

  /** Writes {@code rows} rows to {@code table}, one partition per batch; returns seconds. */
  public static double write(CqlSession session, String table, int rows) {
    return write(session, table, rows, 1);
  }

  /**
   * Writes {@code rows} rows to {@code table}, up to {@code partitionsPerBatch} partitions with the
   * same replicas per batch; returns the seconds it took.
   */
  public static double write(CqlSession session, String table, int rows, int partitionsPerBatch) {
    long base = Instant.parse("2024-01-01T00:00:00Z").toEpochMilli();
    return write(
        session,
        table,
        "INSERT INTO " + table + " (partnerid, id, date) VALUES (?, ?, ?)",
        rows,
        partitionsPerBatch,
        partner -> new Object[] {"partner-" + partner},
        (partner, slot) -> {
          long hour = (partner * 7919L + slot * 104_729L) % (24 * 365);
          return new Object[] {
            "partner-" + partner,
            "id-" + slot / 2,
            Instant.ofEpochMilli(base + hour * 3_600_000L + slot % 2)
          };
        });
  }

  /**
   * Writes {@code rows} rows of any table with {@code insert}: partitions of {@value
   * #ROWS_PER_PARTITION} rows, {@code key} giving a partition's key values (in the driver's types)
   * and {@code row} a row's bound values, batches of up to {@code partitionsPerBatch} partitions
   * with the same replicas; returns the seconds it took.
   */
  public static double write(
      CqlSession session,
      String table,
      String insert,
      int rows,
      int partitionsPerBatch,
      java.util.function.IntFunction<Object[]> key,
      java.util.function.BiFunction<Integer, Integer, Object[]> row) {
    PreparedStatement prepared = session.prepare(insert);
    Semaphore inFlight = new Semaphore(IN_FLIGHT);
    AtomicReference<Throwable> failure = new AtomicReference<>();
    Optional<TokenMap> tokens =
        partitionsPerBatch > 1 ? session.getMetadata().getTokenMap() : Optional.empty();
    CqlIdentifier keyspace = CqlIdentifier.fromInternal(table.substring(0, table.indexOf('.')));
    Map<Set<Node>, List<BatchableStatement<?>>> pending = new HashMap<>();
    long start = System.nanoTime();
    for (int first = 0; first < rows; first += ROWS_PER_PARTITION) {
      int partition = first / ROWS_PER_PARTITION;
      Set<Node> replicas =
          tokens
              .map(t -> t.getReplicas(keyspace, t.newToken(encoded(key.apply(partition)))))
              .orElse(Set.of());
      List<BatchableStatement<?>> batch = pending.computeIfAbsent(replicas, r -> new ArrayList<>());
      for (int k = first; k < Math.min(rows, first + ROWS_PER_PARTITION); k++) {
        batch.add(prepared.bind(row.apply(partition, k - first)));
      }
      if (batch.size() >= partitionsPerBatch * ROWS_PER_PARTITION) {
        send(session, pending.remove(replicas), inFlight, failure, table);
      }
    }
    for (List<BatchableStatement<?>> batch : pending.values()) {
      send(session, batch, inFlight, failure, table);
    }
    inFlight.acquireUninterruptibly(IN_FLIGHT);
    inFlight.release(IN_FLIGHT);
    if (failure.get() != null) {
      throw new IllegalStateException("ingest into " + table + " failed", failure.get());
    }
    return (System.nanoTime() - start) / 1e9;
  }

  /** Partition key values as the token map hashes them: text, timestamp and int. */
  private static java.nio.ByteBuffer[] encoded(Object[] values) {
    java.nio.ByteBuffer[] out = new java.nio.ByteBuffer[values.length];
    for (int i = 0; i < values.length; i++) {
      Object v = values[i];
      out[i] =
          v instanceof String text
              ? TypeCodecs.TEXT.encode(text, ProtocolVersion.DEFAULT)
              : v instanceof Instant time
                  ? TypeCodecs.TIMESTAMP.encode(time, ProtocolVersion.DEFAULT)
                  : TypeCodecs.INT.encode((Integer) v, ProtocolVersion.DEFAULT);
    }
    return out;
  }

  private static void send(
      CqlSession session,
      List<BatchableStatement<?>> statements,
      Semaphore inFlight,
      AtomicReference<Throwable> failure,
      String table) {
    if (failure.get() != null) {
      throw new IllegalStateException("ingest into " + table + " failed", failure.get());
    }
    inFlight.acquireUninterruptibly();
    send(
        session,
        BatchStatement.newInstance(BatchType.UNLOGGED)
            .addAll(statements)
            .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
            .setIdempotent(true),
        0,
        inFlight,
        failure);
  }

  /** Sends a batch; a failed one is retried (as the reshaper's writer retries) up to 3 times. */
  private static void send(
      CqlSession session,
      BatchStatement batch,
      int attempt,
      Semaphore inFlight,
      AtomicReference<Throwable> failure) {
    session
        .executeAsync(batch)
        .whenComplete(
            (r, e) -> {
              if (e != null && attempt < RETRIES) {
                CompletableFuture.runAsync(
                    () -> send(session, batch, attempt + 1, inFlight, failure),
                    CompletableFuture.delayedExecutor(50L << attempt, TimeUnit.MILLISECONDS));
                return;
              }
              if (e != null) {
                failure.compareAndSet(null, e);
              }
              inFlight.release();
            });
  }
}
