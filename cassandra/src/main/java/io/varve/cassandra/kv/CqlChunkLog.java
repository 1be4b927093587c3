package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.cassandra.session.SchemaChanges;
import io.varve.format.ItemTable;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The staging log of chunked values, table {@code kv_chunk_log} of the metadata keyspace: a row per
 * chunked value written, before its first chunk, due for the sweeper a grace period later. The
 * sweeper ({@link CqlChunkSweep}) removes the chunks of every logged value that is not, or no
 * longer, the committed value of its item, and requeues the others for a later look; so chunks of a
 * crashed write, of a replaced value and of a deleted item are all found, whatever the delete. Rows
 * are spread over {@value #SHARDS} partitions and ordered by when they are due; a pass reads the
 * due rows of each shard from the start and removes them with one range tombstone, which the next
 * read skips at once (no queue of row tombstones).
 */
public final class CqlChunkLog {

  /** Partitions of the log. */
  public static final int SHARDS = ItemTable.CHUNK_LOG_SHARDS;

  static final String TABLE = ItemTable.CHUNK_LOG;

  /**
   * A logged chunked value.
   *
   * @param due when the sweeper looks at it
   * @param keyspace the item table's keyspace
   * @param table the item table
   * @param id the record
   * @param key the item key
   * @param generation the generation time of the token that wrote it (microseconds)
   * @param token the token's nonce
   * @param chunks its chunk count
   */
  public record Entry(
      Instant due,
      String keyspace,
      String table,
      String id,
      byte[] key,
      long generation,
      String token,
      int chunks) {

    int shard() {
      return ItemTable.chunkLogShard(id, key);
    }

    Entry dueAt(Instant when) {
      return new Entry(when, keyspace, table, id, key, generation, token, chunks);
    }
  }

  private static final String COLUMNS = ItemTable.CHUNK_LOG_COLUMNS;

  /** A part a client staged: its index, size and CRC32C. */
  record Part(int chunk, int size, int crc32c) {}

  private final CqlSession session;
  private final PreparedStatement insert;
  private final PreparedStatement select;
  private final PreparedStatement removeBefore;
  private final PreparedStatement removeThrough;
  private final PreparedStatement removeOne;
  private final PreparedStatement stagePart;
  private final PreparedStatement recordPart;
  private final PreparedStatement selectParts;

  private CqlChunkLog(CqlSession session, String keyspace, Duration timeout) {
    this.session = session;
    String table = keyspace + "." + TABLE;
    Function<String, PreparedStatement> prepare =
        cql -> SchemaChanges.prepareNow(session, cql, timeout);
    insert = prepare.apply(ItemTable.insertIntoChunkLog(keyspace));
    select =
        prepare.apply(
            "SELECT " + COLUMNS + " FROM " + table + " WHERE shard = ? AND due <= ? LIMIT ?");
    removeBefore = prepare.apply("DELETE FROM " + table + " WHERE shard = ? AND due < ?");
    removeThrough = prepare.apply("DELETE FROM " + table + " WHERE shard = ? AND due <= ?");
    removeOne =
        prepare.apply(
            "DELETE FROM "
                + table
                + " WHERE shard = ? AND due = ? AND keyspace_name = ? AND table_name = ?"
                + " AND id = ? AND key = ? AND generation = ? AND nonce = ?");
    stagePart = prepare.apply(ItemTable.insertIntoChunkLog(keyspace) + " USING TIMESTAMP ?");
    String parts = keyspace + "." + ItemTable.CHUNK_PARTS;
    recordPart =
        prepare.apply(
            "INSERT INTO "
                + parts
                + " (keyspace_name, table_name, id, key, generation, nonce, chunk, size, crc32c)"
                + " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) USING TTL ? AND TIMESTAMP ?");
    selectParts =
        prepare.apply(
            "SELECT chunk, size, crc32c FROM "
                + parts
                + " WHERE keyspace_name = ? AND table_name = ? AND id = ? AND key = ?"
                + " AND generation = ? AND nonce = ? LIMIT ?");
  }

  /** Creates the log table in {@code keyspace} (which exists) if needed; run at server start. */
  public static CqlChunkLog open(CqlSession session, String keyspace, Duration timeout) {
    SchemaChanges.applyNow(
        session,
        SimpleStatement.newInstance(
            "CREATE TABLE IF NOT EXISTS "
                + keyspace
                + "."
                + TABLE
                + " (shard int, due timestamp, keyspace_name text, table_name text, id text,"
                + " key blob, generation bigint, nonce text, chunks int, PRIMARY KEY ((shard),"
                + " due, keyspace_name, table_name, id, key, generation, nonce))"),
        timeout);
    // rows live only until their value is committed (at most kv.limits.maxTokenAge after the
    // token), then expire by their TTL on every replica alike: no delete can be missed, so an
    // hour's gc_grace_seconds resurrects nothing
    SchemaChanges.applyNow(
        session,
        SimpleStatement.newInstance(
            "CREATE TABLE IF NOT EXISTS "
                + keyspace
                + "."
                + ItemTable.CHUNK_PARTS
                + " (keyspace_name text, table_name text, id text, key blob, generation bigint,"
                + " nonce text, chunk int, size int, crc32c int, PRIMARY KEY ((keyspace_name,"
                + " table_name, id, key, generation, nonce), chunk)) WITH gc_grace_seconds = 3600"),
        timeout);
    return new CqlChunkLog(session, keyspace, timeout);
  }

  /** Logs a value about to be chunked; its chunks are written only once this succeeded. */
  public CompletionStage<Void> stage(Entry e) {
    return run(primaryKey(insert.boundStatementBuilder(), e).setInt(8, e.chunks()));
  }

  /**
   * Logs a value a client stages in parts, with the parts' count so far: {@code e.chunks()} is one
   * more than the highest part of the request. Every request staging parts of one version logs the
   * same entry (it is due a grace period after the token's generation time, not after the request),
   * written at the timestamp {@code e.chunks()}: of two requests, the one with the higher part wins
   * whatever their order, so the sweeper removes every part staged; a delete of the entry (at the
   * server's clock) still wins over it.
   */
  CompletionStage<Void> stageParts(Entry e) {
    return run(
        primaryKey(stagePart.boundStatementBuilder(), e)
            .setInt(8, e.chunks())
            .setLong(9, e.chunks()));
  }

  /**
   * Records a part staged, after its chunk is written at the same {@code timestamp}: what its
   * commit checks. Of two stagings of one part, the later one's chunk and record both win.
   */
  CompletionStage<Void> recordPart(
      CqlChunkStore.Version v, Part part, Duration ttl, long timestamp) {
    return run(
        version(recordPart.boundStatementBuilder(), v)
            .setInt(6, part.chunk())
            .setInt(7, part.size())
            .setInt(8, part.crc32c())
            .setInt(9, (int) Math.max(1, ttl.toSeconds()))
            .setLong(10, timestamp));
  }

  /** The parts recorded for a version, by index, at most {@code limit}. */
  CompletionStage<List<Part>> parts(CqlChunkStore.Version v, int limit) {
    return CqlFailures.translated(
            session.executeAsync(
                version(selectParts.boundStatementBuilder(), v)
                    .setInt(6, limit)
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                    .setPageSize(limit)
                    .build()))
        .thenApply(
            rs -> {
              List<Part> parts = new ArrayList<>();
              for (Row row : rs.currentPage()) {
                parts.add(new Part(row.getInt(0), row.getInt(1), row.getInt(2)));
              }
              return parts;
            });
  }

  private static BoundStatementBuilder version(BoundStatementBuilder b, CqlChunkStore.Version v) {
    return b.setString(0, v.keyspace())
        .setString(1, v.table())
        .setString(2, v.id())
        .setByteBuffer(3, ByteBuffer.wrap(v.key()))
        .setLong(4, v.generation())
        .setString(5, v.token());
  }

  /** The entries of {@code shard} due by {@code now}, earliest first, at most {@code limit}. */
  CompletionStage<List<Entry>> due(int shard, Instant now, int limit) {
    return CqlFailures.translated(
            session.executeAsync(
                select
                    .boundStatementBuilder()
                    .setInt(0, shard)
                    .setInstant(1, now)
                    .setInt(2, limit)
                    .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                    .build()))
        .thenApply(
            rs -> {
              List<Entry> entries = new ArrayList<>();
              for (Row row : rs.currentPage()) {
                entries.add(
                    new Entry(
                        row.getInstant(1),
                        row.getString(2),
                        row.getString(3),
                        row.getString(4),
                        RowStream.bytes(row.getByteBuffer(5)),
                        row.getLong(6),
                        row.getString(7),
                        row.getInt(8)));
              }
              return entries;
            });
  }

  /** Removes every entry of {@code shard} due before {@code bound}, or by it when inclusive. */
  CompletionStage<Void> removeDue(int shard, Instant bound, boolean inclusive) {
    return run(
        (inclusive ? removeThrough : removeBefore)
            .boundStatementBuilder()
            .setInt(0, shard)
            .setInstant(1, bound));
  }

  /** Removes one entry. */
  CompletionStage<Void> remove(Entry e) {
    return run(primaryKey(removeOne.boundStatementBuilder(), e));
  }

  /** Binds an entry's primary key, in the order of the table's columns, to markers 0 to 7. */
  private static BoundStatementBuilder primaryKey(BoundStatementBuilder b, Entry e) {
    return b.setInt(0, e.shard())
        .setInstant(1, e.due())
        .setString(2, e.keyspace())
        .setString(3, e.table())
        .setString(4, e.id())
        .setByteBuffer(5, ByteBuffer.wrap(e.key()))
        .setLong(6, e.generation())
        .setString(7, e.token());
  }

  private CompletionStage<Void> run(BoundStatementBuilder b) {
    return CqlFailures.translated(
        session
            .executeAsync(
                b.setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM)
                    .setIdempotence(true)
                    .build())
            .thenApply(rs -> null));
  }
}
