package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.kv.ChunkSweep;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.ValueMetadata;
import java.nio.ByteBuffer;
import java.time.Clock;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * Core's {@link ChunkSweep} on Cassandra or ScyllaDB. One pass of the chunk sweeper over the
 * staging log ({@link CqlChunkLog}): for each shard, the entries due by now (at most {@link
 * KvChunking#sweepBatch()}), earliest first. An entry whose value is still the committed value of
 * its item is requeued for {@link KvChunking#recheck()} later; the chunks of any other (never
 * committed, replaced, deleted) are deleted. Whether a value is current is read at consistency ALL:
 * a sweeper that missed a commit would delete a live value's chunks, so a pass that cannot reach
 * every replica leaves the entry for later. An entry whose handling fails is requeued too, so one
 * bad entry never blocks its shard.
 *
 * <p>Safe against a replay: an entry is due a grace period after staging, longer than a token may
 * be old ({@code kv.limits.maxTokenAge}), so a version whose chunks are deleted can no longer be
 * written again.
 */
public final class CqlChunkSweep implements ChunkSweep {

  private final Function<String, CqlSession> sessions;
  private final Map<CqlSession, Target> targets = new ConcurrentHashMap<>();
  private final CqlChunkLog log;
  private final KvChunking chunking;
  private final Clock clock;

  /** What the sweep reads and deletes through on one cluster. */
  private record Target(CqlSession session, ItemStatements statements, CqlChunkStore store) {}

  /** A sweep whose item tables are all on {@code session}'s cluster. */
  public CqlChunkSweep(CqlSession session, CqlChunkLog log, KvChunking chunking, Clock clock) {
    this(keyspace -> session, log, chunking, clock);
  }

  /**
   * A sweep over item tables on several clusters.
   *
   * @param sessions the session of the cluster holding a keyspace; throws a {@link
   *     io.varve.core.error.VarveException} while it cannot be reached, which leaves the entry in
   *     the log for a later pass
   */
  public CqlChunkSweep(
      Function<String, CqlSession> sessions, CqlChunkLog log, KvChunking chunking, Clock clock) {
    this.sessions = sessions;
    this.log = log;
    this.chunking = chunking;
    this.clock = clock;
  }

  private Target target(String keyspace) {
    return targets.computeIfAbsent(
        sessions.apply(keyspace),
        session -> {
          ItemStatements statements = new ItemStatements(session);
          return new Target(session, statements, new CqlChunkStore(session, statements, null));
        });
  }

  /** Sweeps every shard once; fails only when the log itself cannot be read or trimmed. */
  @Override
  public CompletionStage<Result> pass() {
    Instant now = clock.instant();
    AtomicLong examined = new AtomicLong();
    AtomicLong chunks = new AtomicLong();
    AtomicLong values = new AtomicLong();
    AtomicLong failures = new AtomicLong();
    CompletionStage<Void> done = CompletableFuture.completedFuture(null);
    for (int shard = 0; shard < CqlChunkLog.SHARDS; shard++) {
      int s = shard;
      done =
          done.thenCompose(
              v ->
                  log.due(s, now, chunking.sweepBatch())
                      .thenCompose(
                          entries ->
                              handle(entries, 0, now, examined, chunks, values, failures)
                                  .thenCompose(handled -> trim(s, entries, handled, now))));
    }
    return done.thenApply(
        v -> new Result(examined.get(), chunks.get(), values.get(), failures.get()));
  }

  /** Handles entries from {@code i} on; completes with how many were handled. */
  private CompletionStage<Integer> handle(
      List<CqlChunkLog.Entry> entries,
      int i,
      Instant now,
      AtomicLong examined,
      AtomicLong chunks,
      AtomicLong values,
      AtomicLong failures) {
    if (i == entries.size()) {
      return CompletableFuture.completedFuture(i);
    }
    CqlChunkLog.Entry e = entries.get(i);
    examined.incrementAndGet();
    return CompletableFuture.completedFuture(e)
        .thenCompose(this::current)
        .thenCompose(
            live -> {
              if (live) {
                return log.stage(e.dueAt(now.plus(chunking.recheck())));
              }
              CqlChunkStore.Version version =
                  new CqlChunkStore.Version(
                      e.keyspace(), e.table(), e.id(), e.key(), e.generation(), e.token());
              return target(e.keyspace())
                  .store()
                  .delete(
                      version,
                      e.chunks(),
                      chunking.writeConcurrency(),
                      DefaultConsistencyLevel.LOCAL_QUORUM)
                  .thenRun(
                      () -> {
                        chunks.addAndGet(e.chunks());
                        values.incrementAndGet();
                      });
            })
        .handle(
            (v, error) -> {
              if (error == null || tableGone(e)) {
                // a deleted namespace's tables went with their chunks: nothing left to remove
                return CompletableFuture.<Boolean>completedFuture(true);
              }
              failures.incrementAndGet();
              // out of the way until the next look; when even that fails, the pass stops here
              return log.stage(e.dueAt(now.plus(chunking.recheck())))
                  .handle((w, again) -> again == null);
            })
        .thenCompose(stage -> stage)
        .thenCompose(
            ok ->
                ok
                    ? handle(entries, i + 1, now, examined, chunks, values, failures)
                    : CompletableFuture.completedFuture(i));
  }

  /**
   * Removes the handled entries from the log: a range tombstone up to the first entry not handled
   * (or up to {@code now} when all were and the shard had no more), and row deletes for handled
   * entries due at that entry's very time.
   */
  private CompletionStage<Void> trim(
      int shard, List<CqlChunkLog.Entry> entries, int handled, Instant now) {
    if (entries.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    if (handled == entries.size() && entries.size() < chunking.sweepBatch()) {
      return log.removeDue(shard, now, true);
    }
    Instant bound = entries.get(Math.min(handled, entries.size() - 1)).due();
    CompletionStage<Void> done = log.removeDue(shard, bound, false);
    for (int j = 0; j < handled; j++) {
      CqlChunkLog.Entry e = entries.get(j);
      if (e.due().equals(bound)) {
        done = done.thenCompose(v -> log.remove(e));
      }
    }
    return done;
  }

  /** Whether the entry's item table is no longer in the schema the driver knows. */
  private boolean tableGone(CqlChunkLog.Entry e) {
    CqlSession session;
    try {
      session = target(e.keyspace()).session();
    } catch (RuntimeException unreachable) {
      return false; // not known: the entry stays for a later pass
    }
    return session
        .getMetadata()
        .getKeyspace(CqlIdentifier.fromInternal(e.keyspace()))
        .flatMap(ks -> ks.getTable(CqlIdentifier.fromInternal(e.table())))
        .isEmpty();
  }

  /** Whether the entry's version is the committed, live value of its item. */
  private CompletionStage<Boolean> current(CqlChunkLog.Entry e) {
    Target target = target(e.keyspace());
    String table =
        CqlIdentifier.fromInternal(e.keyspace()).asCql(true)
            + "."
            + CqlIdentifier.fromInternal(e.table()).asCql(true);
    return target
        .statements()
        .prepare(
            "SELECT value_metadata, WRITETIME(value_metadata) FROM "
                + table
                + " WHERE id = ? AND key = ?")
        .thenCompose(
            select ->
                CqlFailures.translated(
                    target
                        .session()
                        .executeAsync(
                            select
                                .boundStatementBuilder()
                                .setString(0, e.id())
                                .setByteBuffer(1, ByteBuffer.wrap(e.key()))
                                .setConsistencyLevel(DefaultConsistencyLevel.ALL)
                                .build())))
        .thenApply(
            rs -> {
              Row row = rs.one();
              if (row == null) {
                return false;
              }
              ValueMetadata m = ValueMetadata.decode(row.getByteBuffer(0));
              return !m.expired()
                  && m.isChunked()
                  && m.token().equals(e.token())
                  && row.getLong(1) == e.generation();
            });
  }
}
