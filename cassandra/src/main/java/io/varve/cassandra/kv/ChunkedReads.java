package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.cassandra.cql.ConsistencyLevels;
import io.varve.core.error.VarveException;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.read.ResponseMemory;
import io.varve.format.ItemValues;
import java.nio.ByteBuffer;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Reassembles chunked values. The chunks of the version the item row names are read in parallel
 * (bounded), their sizes and CRC32C checked against the row's metadata; a value is returned whole
 * or not at all. When a chunk is missing or the bytes do not match, a newer commit may have
 * replaced the value (and the sweeper taken the old chunks): the item row is read again and its
 * current value is returned instead, up to {@value #ATTEMPTS} times, then the read fails.
 */
final class ChunkedReads {

  static final int ATTEMPTS = 3;

  private final CqlItemReader reader;
  private final CqlChunkStore store;
  private final int concurrency;

  ChunkedReads(CqlItemReader reader, CqlChunkStore store, int concurrency) {
    this.reader = reader;
    this.store = store;
    this.concurrency = concurrency;
  }

  /**
   * The item of {@code key} with its whole value, from the chunks of the version of {@code
   * metadata} and {@code generation}; null when the item was deleted meanwhile.
   *
   * @param raw whether to return the value as stored (compressed) rather than as written
   * @param memory holds {@code metadata}'s value already; a newer, larger value read instead holds
   *     the difference first
   */
  CompletionStage<KvItem> value(
      KvNamespace ns,
      String id,
      byte[] key,
      ValueMetadata metadata,
      long generation,
      boolean raw,
      ResponseMemory memory) {
    return attempt(ns, id, key, metadata, generation, raw, memory, 1);
  }

  private CompletionStage<KvItem> attempt(
      KvNamespace ns,
      String id,
      byte[] key,
      ValueMetadata metadata,
      long generation,
      boolean raw,
      ResponseMemory memory,
      int attempt) {
    CqlChunkStore.Version version =
        CqlChunkStore.Version.of(ns, id, key, generation, metadata.token());
    return stored(version, metadata, ConsistencyLevels.of(ns.consistency()))
        .thenCompose(
            bytes -> {
              if (bytes != null) {
                return CompletableFuture.completedFuture(
                    item(key, bytes, metadata, generation, raw));
              }
              if (attempt >= ATTEMPTS) {
                throw new VarveException(
                    VarveException.Kind.UNAVAILABLE,
                    "the chunks of the value of an item of record "
                        + id
                        + " are missing or do not match their checksum after "
                        + ATTEMPTS
                        + " reads; retry");
              }
              return current(ns, id, key)
                  .thenCompose(
                      row -> {
                        if (row == null) {
                          return CompletableFuture.completedFuture(null);
                        }
                        // the metadata in front of the value cell (ValueMetadata#frame)
                        ValueMetadata now = ValueMetadata.decode(row.getByteBuffer(1));
                        long writetime = row.getLong(2);
                        if (now.expired()) {
                          return CompletableFuture.completedFuture(null);
                        }
                        if (now.valueSize() > metadata.valueSize()) {
                          memory.hold(now.valueSize() - metadata.valueSize());
                        }
                        if (!now.isChunked()) {
                          byte[] value =
                              RowStream.bytes(ValueMetadata.payload(row.getByteBuffer(1)));
                          return CompletableFuture.completedFuture(
                              item(key, value, now, writetime, raw));
                        }
                        return attempt(ns, id, key, now, writetime, raw, memory, attempt + 1);
                      });
            });
  }

  /** The item row of {@code key} as it is now, with its value; null when there is none. */
  private CompletionStage<Row> current(KvNamespace ns, String id, byte[] key) {
    return reader
        .query(ns, id, new ItemPredicate.Keys(List.of(key)), ItemStatements.Columns.VALUES, 2)
        .thenApply(rs -> rs.one());
  }

  /**
   * The stored bytes of a version, all chunks concatenated and checked; null when a chunk is
   * missing or the bytes do not match the metadata.
   */
  CompletionStage<byte[]> stored(
      CqlChunkStore.Version version, ValueMetadata m, ConsistencyLevel consistency) {
    ItemValues.Assembly assembly;
    try {
      assembly = new ItemValues.Assembly(m);
    } catch (IllegalArgumentException e) {
      throw new VarveException(VarveException.Kind.INTERNAL, e.getMessage());
    }
    return CqlChunkStore.bounded(
            m.chunks(),
            concurrency,
            i -> store.read(version, i, consistency).thenAccept(chunk -> assembly.put(i, chunk)))
        .thenApply(v -> assembly.stored());
  }

  private static KvItem item(
      byte[] key, byte[] stored, ValueMetadata m, long generation, boolean raw) {
    if (raw || m.compression() == ValueMetadata.Compression.NONE) {
      return new KvItem(
          key,
          stored,
          m.valueSize(),
          generation,
          raw ? m.compression() : ValueMetadata.Compression.NONE);
    }
    byte[] value = ItemValues.value(ByteBuffer.wrap(stored), m, false);
    return new KvItem(key, value, m.valueSize(), generation);
  }
}
