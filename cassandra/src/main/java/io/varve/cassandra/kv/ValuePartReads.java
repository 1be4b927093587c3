package io.varve.cassandra.kv;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.cassandra.cql.ConsistencyLevels;
import io.varve.core.error.VarveException;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.ResponseBound;
import io.varve.core.kv.ValueMetadata;
import io.varve.core.kv.ValueParts;
import io.varve.core.read.ResponseMemory;
import io.varve.format.ItemValues;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.zip.CRC32C;

/**
 * Reads the parts of values returned in parts, each from the version the first part pinned ({@link
 * ValueParts}). What a part costs depends on how the value is stored:
 *
 * <ul>
 *   <li>A chunked value returned as stored (not compressed, or compressed and the client signalled
 *       zstd): only the stored chunks that overlap the part are read. The whole value's CRC32C is
 *       the stored checksum; the client checks it once it has every part.
 *   <li>A chunked value stored compressed, returned decompressed: every chunk is read and checked,
 *       the value decompressed and the part cut from it. Each part costs a read of the whole value;
 *       a client that signals zstd avoids it.
 *   <li>A value in its item row (inline, it may decompress to the largest value): the row is read
 *       again, its version checked to be the pinned one, and the part cut from its value.
 * </ul>
 *
 * <p>When the pinned version is gone (its row now holds another version, or its chunks were swept
 * once a newer version had replaced it for the sweeper's grace period), the read fails
 * FAILED_PRECONDITION: the client reads the value again from its first part.
 */
final class ValuePartReads {

  private final CqlItemReader reader;
  private final CqlChunkStore store;
  private final int concurrency;

  /** The first part of a value, and the parts it pins. */
  record First(KvItem item, ValueParts parts) {}

  ValuePartReads(CqlItemReader reader, CqlChunkStore store, int concurrency) {
    this.reader = reader;
    this.store = store;
    this.concurrency = concurrency;
  }

  /**
   * The first part of the value of {@code item}, taken in parts by a page.
   *
   * @param item the item as the page read it: with its whole value when inline, none when chunked
   * @param metadata the item row's metadata
   * @param raw whether the client takes values as stored (compressed)
   * @param partBytes bytes of every part but the last
   * @param memory holds what the read holds beyond an inline value, already held by the page
   */
  CompletionStage<First> first(
      KvNamespace ns,
      String id,
      KvItem item,
      ValueMetadata metadata,
      boolean raw,
      int partBytes,
      ResponseMemory memory) {
    boolean asStored = raw || metadata.compression() == ValueMetadata.Compression.NONE;
    long generation = item.generationMicros();
    if (!metadata.isChunked()) {
      byte[] value = item.value();
      return CompletableFuture.completedFuture(
          first(
              item,
              value,
              new ValueParts(
                  0, partBytes, value.length, crc(value), asStored, generation, metadata)));
    }
    if (asStored) {
      ValueParts parts =
          new ValueParts(
              0, partBytes, metadata.storedSize(), metadata.checksum(), true, generation, metadata);
      return part(ns, id, item.key(), parts, memory)
          .thenApply(bytes -> new First(withValue(item, bytes, parts), parts));
    }
    memory.hold(metadata.storedSize() + metadata.valueSize());
    return decompressed(ns, id, item.key(), metadata, generation)
        .thenApply(
            value ->
                first(
                    item,
                    value,
                    new ValueParts(
                        0, partBytes, value.length, crc(value), false, generation, metadata)));
  }

  /** Part {@code parts.index()} of a value, from its pinned version. */
  CompletionStage<byte[]> part(
      KvNamespace ns, String id, byte[] key, ValueParts parts, ResponseMemory memory) {
    ValueMetadata m = parts.stored();
    if (m.isChunked() && parts.asStored()) {
      return range(ns, id, key, parts, memory);
    }
    if (m.isChunked()) {
      memory.hold(m.storedSize() + m.valueSize());
      return decompressed(ns, id, key, m, parts.generationMicros())
          .thenApply(value -> cut(id, key, value, parts));
    }
    memory.hold(parts.size());
    return reader
        .query(ns, id, new ItemPredicate.Keys(List.of(key)), ItemStatements.Columns.VALUES, 2)
        .thenApply(
            rs -> {
              Row row = rs.one();
              if (row == null) {
                throw changed(id, key);
              }
              ByteBuffer cell = row.getByteBuffer(1);
              ValueMetadata now = ValueMetadata.decode(cell);
              if (now.expired()
                  || now.isChunked()
                  || !now.token().equals(m.token())
                  || row.getLong(2) != parts.generationMicros()) {
                throw changed(id, key);
              }
              return cut(id, key, ItemValues.inline(cell, now, parts.asStored()), parts);
            });
  }

  /** The part's bytes from the stored chunks that overlap it, read in parallel (bounded). */
  private CompletionStage<byte[]> range(
      KvNamespace ns, String id, byte[] key, ValueParts parts, ResponseMemory memory) {
    ValueMetadata m = parts.stored();
    int chunkSize = m.chunkSize();
    long start = parts.start();
    long end = parts.end();
    int firstChunk = (int) (start / chunkSize);
    int lastChunk = (int) ((end - 1) / chunkSize);
    memory.hold((end - start) + (long) (lastChunk - firstChunk + 1) * chunkSize);
    CqlChunkStore.Version version =
        CqlChunkStore.Version.of(ns, id, key, parts.generationMicros(), m.token());
    ConsistencyLevel consistency = ConsistencyLevels.of(ns.consistency());
    ByteBuffer[] chunks = new ByteBuffer[lastChunk - firstChunk + 1];
    return CqlChunkStore.bounded(
            chunks.length,
            concurrency,
            i ->
                store
                    .read(version, firstChunk + i, consistency)
                    .thenAccept(chunk -> chunks[i] = chunk))
        .thenApply(
            v -> {
              byte[] part = new byte[(int) (end - start)];
              for (int i = 0; i < chunks.length; i++) {
                int index = firstChunk + i;
                long from = (long) index * chunkSize;
                long expected = Math.min(chunkSize, m.storedSize() - from);
                ByteBuffer chunk = chunks[i];
                if (chunk == null || chunk.remaining() != expected) {
                  throw changed(id, key);
                }
                long copyFrom = Math.max(start, from);
                long copyTo = Math.min(end, from + expected);
                chunk
                    .duplicate()
                    .position(chunk.position() + (int) (copyFrom - from))
                    .get(part, (int) (copyFrom - start), (int) (copyTo - copyFrom));
              }
              return part;
            });
  }

  /**
   * The whole value of a chunked version, every chunk checked ({@link ChunkedReads}), decompressed.
   */
  private CompletionStage<byte[]> decompressed(
      KvNamespace ns, String id, byte[] key, ValueMetadata m, long generation) {
    return reader
        .chunks()
        .stored(
            CqlChunkStore.Version.of(ns, id, key, generation, m.token()),
            m,
            ConsistencyLevels.of(ns.consistency()))
        .thenApply(
            stored -> {
              if (stored == null) {
                throw changed(id, key);
              }
              return ItemValues.value(ByteBuffer.wrap(stored), m, false);
            });
  }

  /** Part {@code parts.index()} of {@code value}, which must be the pinned value's size. */
  private static byte[] cut(String id, byte[] key, byte[] value, ValueParts parts) {
    if (value.length != parts.size()) {
      throw changed(id, key);
    }
    return Arrays.copyOfRange(value, (int) parts.start(), (int) parts.end());
  }

  private static First first(KvItem item, byte[] value, ValueParts parts) {
    byte[] part = Arrays.copyOfRange(value, 0, (int) parts.end());
    return new First(withValue(item, part, parts), parts);
  }

  private static KvItem withValue(KvItem item, byte[] part, ValueParts parts) {
    return new KvItem(
        item.key(),
        part,
        parts.stored().valueSize(),
        parts.generationMicros(),
        parts.asStored() ? parts.stored().compression() : ValueMetadata.Compression.NONE);
  }

  private static int crc(byte[] value) {
    CRC32C crc = new CRC32C();
    crc.update(value);
    return (int) crc.getValue();
  }

  /** The refusal of a part whose pinned version is gone. */
  static VarveException changed(String id, byte[] key) {
    return VarveException.failedPrecondition(
        "the value of key "
            + ResponseBound.printable(key)
            + " of record "
            + id
            + " changed while it was read in parts (a newer write replaced the version whose first"
            + " part was returned); read it again from its first part (without page_token)");
  }
}
