package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.kv.KvNamespace;
import io.varve.core.limit.AsyncLimiter;
import io.varve.format.ItemTable;
import io.varve.format.ItemValues;
import java.nio.ByteBuffer;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.IntFunction;

/**
 * Reads, writes and deletes the chunks of one version of an item's value in its namespace's chunk
 * table ({@link CqlChunkTables}). A version is the token that wrote it: its generation time
 * (microseconds, also every chunk's write timestamp) and its nonce. Chunks are written and read
 * {@code concurrency} at a time per value; writes also pass the shared write limiter.
 */
final class CqlChunkStore {

  /** Where a version's chunks live. */
  record Version(
      String keyspace, String table, String id, byte[] key, long generation, String token) {

    /**
     * The version of the item {@code key} of record {@code id} in {@code ns} that the token of
     * {@code generation} (microseconds) and nonce {@code token} wrote.
     */
    static Version of(KvNamespace ns, String id, byte[] key, long generation, String token) {
      return new Version(ns.keyspace(), ns.table(), id, key, generation, token);
    }
  }

  private final CqlSession session;
  private final ItemStatements statements;
  private final AsyncLimiter limiter;

  CqlChunkStore(CqlSession session, ItemStatements statements, AsyncLimiter limiter) {
    this.session = session;
    this.statements = statements;
    this.limiter = limiter;
  }

  /** Writes {@code stored} as chunks of {@code chunkSize} bytes, {@code concurrency} at a time. */
  CompletionStage<Void> write(
      Version v, ByteBuffer stored, int chunkSize, int concurrency, ConsistencyLevel consistency) {
    int count = (stored.remaining() + chunkSize - 1) / chunkSize;
    return bounded(
        count,
        concurrency,
        i -> write(v, i, ItemValues.chunk(stored, i, chunkSize), v.generation(), consistency));
  }

  /**
   * Writes chunk {@code index} of a version at {@code timestamp} (microseconds): the version's
   * generation time when the server stages a whole value (a retry writes the same cell at the same
   * timestamp), the server's clock for a part a client stages (a part staged again replaces it).
   */
  CompletionStage<Void> write(
      Version v, int index, ByteBuffer data, long timestamp, ConsistencyLevel consistency) {
    return statements
        .prepare(ItemTable.insertChunkInto(table(v)))
        .thenCompose(
            insert -> {
              BoundStatementBuilder b =
                  address(insert.boundStatementBuilder(), v, index)
                      .setByteBuffer(5, data)
                      .setLong(6, timestamp)
                      .setConsistencyLevel(consistency)
                      // a retry writes the same cell at the same timestamp
                      .setIdempotence(true);
              return CqlFailures.translated(
                  limiter
                      .submit(data.remaining(), () -> session.executeAsync(b.build()))
                      .thenApply(rs -> null));
            });
  }

  /**
   * Reads chunk {@code index}; completes with null when it is missing (not written yet, swept, or
   * of a version that never committed).
   */
  CompletionStage<ByteBuffer> read(Version v, int index, ConsistencyLevel consistency) {
    return statements
        .prepare(ItemTable.selectChunkFrom(table(v)))
        .thenCompose(
            select ->
                CqlFailures.translated(
                    session.executeAsync(
                        address(select.boundStatementBuilder(), v, index)
                            .setConsistencyLevel(consistency)
                            .build())))
        .thenApply(
            rs -> {
              var row = rs.one();
              return row == null ? null : row.getByteBuffer(0);
            });
  }

  /**
   * Deletes the {@code count} chunks of a version, {@code concurrency} at a time, at a timestamp
   * after both the chunks' own (their generation time, which may lead this server's clock by up to
   * {@code kv.limits.maxTokenLead}) and this server's clock.
   */
  CompletionStage<Void> delete(
      Version v, int count, int concurrency, ConsistencyLevel consistency) {
    long timestamp = Math.max(System.currentTimeMillis() * 1000, v.generation() + 1);
    return statements
        .prepare(
            "DELETE FROM "
                + table(v)
                + " USING TIMESTAMP ? WHERE id = ? AND key = ? AND generation = ? AND nonce = ? AND chunk = ?")
        .thenCompose(
            delete ->
                bounded(
                    count,
                    concurrency,
                    i ->
                        CqlFailures.translated(
                            session
                                .executeAsync(
                                    address(delete.boundStatementBuilder(), v, i, 1)
                                        .setLong(0, timestamp)
                                        .setConsistencyLevel(consistency)
                                        .setIdempotence(true)
                                        .build())
                                .thenApply(rs -> null))));
  }

  private static BoundStatementBuilder address(BoundStatementBuilder b, Version v, int chunk) {
    return address(b, v, chunk, 0);
  }

  /** Binds a chunk's primary key from marker {@code first} on. */
  private static BoundStatementBuilder address(
      BoundStatementBuilder b, Version v, int chunk, int first) {
    return b.setString(first, v.id())
        .setByteBuffer(first + 1, ByteBuffer.wrap(v.key()))
        .setLong(first + 2, v.generation())
        .setString(first + 3, v.token())
        .setInt(first + 4, chunk);
  }

  private static String table(Version v) {
    return CqlIdentifier.fromInternal(v.keyspace()).asCql(true)
        + "."
        + CqlIdentifier.fromInternal(ItemTable.chunkTable(v.table())).asCql(true);
  }

  /**
   * Runs {@code task} for 0..count-1, at most {@code concurrency} at once; fails with the first
   * failure (tasks already started finish on their own).
   */
  static CompletionStage<Void> bounded(
      int count, int concurrency, IntFunction<CompletionStage<Void>> task) {
    CompletableFuture<Void> done = new CompletableFuture<>();
    AtomicInteger next = new AtomicInteger();
    AtomicInteger finished = new AtomicInteger();
    Runnable[] worker = new Runnable[1];
    worker[0] =
        () -> {
          int i = next.getAndIncrement();
          if (i >= count || done.isDone()) {
            return;
          }
          task.apply(i)
              .whenComplete(
                  (v, error) -> {
                    if (error != null) {
                      done.completeExceptionally(error);
                    } else if (finished.incrementAndGet() == count) {
                      done.complete(null);
                    } else {
                      worker[0].run();
                    }
                  });
        };
    if (count == 0) {
      return CompletableFuture.completedFuture(null);
    }
    for (int w = 0; w < Math.min(concurrency, count); w++) {
      worker[0].run();
    }
    return done;
  }
}
