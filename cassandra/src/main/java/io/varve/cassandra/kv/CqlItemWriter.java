package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BatchableStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import io.varve.cassandra.cql.ConsistencyLevels;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvCommit;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvPart;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.limit.AsyncLimiter;
import io.varve.format.ValueCodec;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Writes and deletes items. Every statement carries {@code USING TIMESTAMP} = the idempotency
 * token's generation time: Cassandra keeps, cell by cell, the write with the highest timestamp, so
 * an older retried or hedged mutation never overwrites a newer one, and a replay rewrites the same
 * cells with the same timestamp (no further effect). The items of one request are one
 * single-partition unlogged batch: one mutation, applied atomically on each replica. Writes go
 * through the shared write limiter, in number and bytes.
 *
 * <p>Deletes: a record is one partition tombstone, a range one range tombstone; listed keys are
 * rewritten as expired (an empty value and an expired metadata) with a TTL drawn in [{@link
 * #EXPIRY_MIN}, {@link #EXPIRY_MAX}]: reads hide them at once and every cell of the row (row
 * marker, value, metadata) expires with that TTL, so deletes of many keys spread their tombstones
 * over time instead of all at once.
 */
public final class CqlItemWriter {

  public static final Duration EXPIRY_MIN = Duration.ofMinutes(5);
  public static final Duration EXPIRY_MAX = Duration.ofMinutes(15);

  private final CqlSession session;
  private final ItemStatements statements;
  private final AsyncLimiter limiter;
  private final ChunkedWrites chunks;

  /** A writer of values up to {@code chunking.threshold()} in their row, larger ones in chunks. */
  public CqlItemWriter(
      CqlSession session,
      AsyncLimiter limiter,
      int compressionThreshold,
      KvChunking chunking,
      CqlChunkLog log,
      Clock clock) {
    this.session = session;
    this.statements = new ItemStatements(session);
    this.limiter = limiter;
    this.chunks =
        new ChunkedWrites(
            new CqlChunkStore(session, statements, limiter),
            log,
            new ValueCodec(compressionThreshold),
            chunking,
            clock);
  }

  /** A writer of values in their row only (callers refuse larger ones). */
  public CqlItemWriter(CqlSession session, AsyncLimiter limiter, int compressionThreshold) {
    this(session, limiter, compressionThreshold, KvChunking.DEFAULT, null, Clock.systemUTC());
  }

  /**
   * Writes the items of one record: the chunks of large values first ({@link ChunkedWrites}), then
   * every item row in one batch, which commits them.
   */
  public CompletionStage<Void> put(
      KvNamespace ns, String id, IdempotencyToken token, List<KvItem> items) {
    return puts(ns, id, token, items).thenCompose(w -> execute(ns, w.batch(), w.bytes()));
  }

  /**
   * A PutItems with parts and commits of the chunked protocol: the parts are staged first (those of
   * a value this token already committed are left alone), then the commits checked against the
   * staged parts, then every row of the request, whole values and commits, written in one batch.
   * Completes with nothing written when a commit is refused.
   */
  public CompletionStage<Void> put(
      KvNamespace ns,
      String id,
      IdempotencyToken token,
      List<KvItem> items,
      List<KvPart> parts,
      List<KvCommit> commits) {
    CompletionStage<Void> staged =
        parts.isEmpty()
            ? CompletableFuture.completedFuture(null)
            : committedByToken(ns, id, token, parts)
                .thenCompose(done -> chunks.stageParts(ns, id, token, parts, done::contains));
    if (commits.isEmpty() && items.isEmpty()) {
      return staged;
    }
    return staged
        .thenCompose(v -> chunks.commit(ns, id, token, commits))
        .thenCompose(committed -> puts(ns, id, token, items, committed))
        .thenCompose(w -> execute(ns, w.batch(), w.bytes()));
  }

  /**
   * The keys among {@code parts}' whose current value this very token committed (its nonce and
   * generation time), as a set ordered by key bytes.
   */
  private CompletionStage<java.util.TreeSet<byte[]>> committedByToken(
      KvNamespace ns, String id, IdempotencyToken token, List<KvPart> parts) {
    java.util.TreeSet<byte[]> keys = new java.util.TreeSet<>(KeyRange::compare);
    parts.forEach(p -> keys.add(p.key()));
    List<ByteBuffer> listed = keys.stream().map(ByteBuffer::wrap).toList();
    return statements
        .selectKeys(ns, ItemStatements.Columns.METADATA)
        .thenCompose(
            select ->
                session.executeAsync(
                    select
                        .boundStatementBuilder()
                        .setString(0, id)
                        .setList(1, listed, ByteBuffer.class)
                        .setConsistencyLevel(ConsistencyLevels.of(ns.consistency()))
                        .build()))
        .thenApply(
            rs -> {
              java.util.TreeSet<byte[]> done = new java.util.TreeSet<>(KeyRange::compare);
              for (var row : rs.currentPage()) {
                ValueMetadata m = ValueMetadata.decode(row.getByteBuffer(1));
                if (!m.expired()
                    && m.token().equals(token.token())
                    && row.getLong(2) == token.generationMicros()) {
                  done.add(RowStream.bytes(row.getByteBuffer(0)));
                }
              }
              return done;
            });
  }

  /**
   * Statements of one record and the bytes they write (their weight in the write budget): parts of
   * a single-partition batch.
   */
  record Writes(List<BatchableStatement<?>> statements, long bytes) {

    BatchStatement batch() {
      return BatchStatement.newInstance(BatchType.UNLOGGED, statements);
    }
  }

  /**
   * The rows of a put of {@code items} into one record, once the chunks of its large values are
   * staged ({@link ChunkedWrites}): the batch that carries these rows commits those values.
   */
  CompletionStage<Writes> puts(
      KvNamespace ns, String id, IdempotencyToken token, List<KvItem> items) {
    return puts(ns, id, token, items, List.of());
  }

  /** As above, with the rows of {@code committed} values (their chunks staged) in the batch too. */
  private CompletionStage<Writes> puts(
      KvNamespace ns,
      String id,
      IdempotencyToken token,
      List<KvItem> items,
      List<ChunkedWrites.Stored> committed) {
    return chunks
        .stage(ns, id, token, items)
        .thenCompose(
            stored ->
                statements
                    .insert(ns, false)
                    .thenApply(
                        insert -> {
                          List<BatchableStatement<?>> rows =
                              new ArrayList<>(stored.size() + committed.size());
                          long bytes = 0;
                          for (List<ChunkedWrites.Stored> each : List.of(stored, committed)) {
                            for (ChunkedWrites.Stored row : each) {
                              rows.add(
                                  row(
                                          insert,
                                          id,
                                          row.key(),
                                          row.stored().cell(),
                                          row.stored().metadata(),
                                          token)
                                      .build());
                              bytes += row.key().length + row.stored().rowBytes();
                            }
                          }
                          return new Writes(rows, bytes);
                        }));
  }

  public CompletionStage<Void> delete(
      KvNamespace ns, String id, IdempotencyToken token, ItemPredicate predicate) {
    return deletes(ns, id, token, predicate)
        .thenCompose(
            w ->
                execute(
                    ns, w.statements().size() == 1 ? w.statements().get(0) : w.batch(), w.bytes()));
  }

  /**
   * The statements of a delete in one record: one partition or range tombstone, or the listed keys
   * rewritten as expired.
   */
  CompletionStage<Writes> deletes(
      KvNamespace ns, String id, IdempotencyToken token, ItemPredicate predicate) {
    if (predicate instanceof ItemPredicate.Keys keys) {
      return expire(ns, id, token, keys.keys());
    }
    KeyRange range = predicate instanceof ItemPredicate.Range r ? r.range() : KeyRange.ALL;
    return statements
        .delete(ns, range)
        .thenApply(
            delete -> {
              BoundStatementBuilder bound =
                  delete
                      .boundStatementBuilder()
                      .setLong(0, token.generationMicros())
                      .setString(1, id);
              int i = 2;
              if (range.start().isPresent()) {
                bound.setByteBuffer(i++, ByteBuffer.wrap(range.start().get()));
              }
              if (range.end().isPresent()) {
                bound.setByteBuffer(i, ByteBuffer.wrap(range.end().get()));
              }
              return new Writes(List.of(bound.build()), 64);
            });
  }

  private CompletionStage<Writes> expire(
      KvNamespace ns, String id, IdempotencyToken token, List<byte[]> keys) {
    return statements
        .insert(ns, true)
        .thenApply(
            insert -> {
              List<BatchableStatement<?>> rows = new ArrayList<>();
              byte[] metadata = ValueMetadata.expired(token.token()).encode();
              long bytes = 0;
              for (byte[] key : keys) {
                int ttl =
                    (int)
                        ThreadLocalRandom.current()
                            .nextLong(EXPIRY_MIN.toSeconds(), EXPIRY_MAX.toSeconds() + 1);
                // an empty value, not a null: a null would be a tombstone cell that outlives the
                // TTL
                rows.add(
                    row(
                            insert,
                            id,
                            key,
                            ValueMetadata.frame(metadata, ByteBuffer.allocate(0)),
                            metadata,
                            token)
                        .setInt(5, ttl)
                        .build());
                bytes += key.length + 2L * metadata.length;
              }
              return new Writes(rows, bytes);
            });
  }

  private static BoundStatementBuilder row(
      PreparedStatement insert,
      String id,
      byte[] key,
      ByteBuffer cell,
      byte[] metadata,
      IdempotencyToken token) {
    return insert
        .boundStatementBuilder()
        .setString(0, id)
        .setByteBuffer(1, ByteBuffer.wrap(key))
        .setByteBuffer(2, cell)
        .setByteBuffer(3, ByteBuffer.wrap(metadata))
        .setLong(4, token.generationMicros());
  }

  CompletionStage<Void> execute(KvNamespace ns, Statement<?> statement, long bytes) {
    // idempotent by construction: a retry writes the same cells with the same timestamp
    Statement<?> ready =
        statement.setConsistencyLevel(ConsistencyLevels.of(ns.consistency())).setIdempotent(true);
    return limiter.submit(bytes, () -> session.executeAsync(ready)).thenApply(rs -> null);
  }
}
