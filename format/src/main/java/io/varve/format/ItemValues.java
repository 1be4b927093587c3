package io.varve.format;

import io.varve.core.kv.KvChunking;
import io.varve.core.kv.ValueMetadata;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * How one KeyValue item's value is stored, and read back. A value the client sent compressed is
 * stored as sent; others are compressed by the {@link ValueCodec} rule. A value of at most the
 * chunking threshold (as sent) stays in its item row, its {@code value} cell the metadata then the
 * stored bytes ({@link ValueMetadata#frame}); a larger one goes to the chunk table ({@link
 * ItemTable}) in chunks of the chunk size, and its row holds the metadata (chunk count, chunk size,
 * stored size, CRC32C of the stored bytes) and an empty value. A chunked value is read whole and
 * checked, or not at all ({@link Assembly}).
 */
public final class ItemValues {

  private ItemValues() {}

  /**
   * One item as it is stored.
   *
   * @param metadata the encoded {@code value_metadata}
   * @param stored the stored bytes: in the row, or to be written as chunks when {@link
   *     #isChunked()}
   */
  public record Stored(ValueMetadata metadataFields, byte[] metadata, ByteBuffer stored) {

    public boolean isChunked() {
      return metadataFields.isChunked();
    }

    /** The row's {@code value} cell: the metadata, then the stored bytes unless chunked. */
    public ByteBuffer cell() {
      return ValueMetadata.frame(metadata, isChunked() ? ByteBuffer.allocate(0) : stored);
    }

    /** Bytes the row writes: its key not counted, the metadata twice (cell and column). */
    public long rowBytes() {
      return (isChunked() ? 0 : stored.remaining()) + 2L * metadata.length;
    }
  }

  /**
   * The stored form of {@code value}.
   *
   * @param sentCompressed whether the client sent the value zstd-compressed (stored as sent)
   * @param valueSize bytes of the value as the client wrote it
   * @param nonce the idempotency token's nonce
   */
  public static Stored store(
      byte[] value,
      boolean sentCompressed,
      long valueSize,
      String nonce,
      ValueCodec codec,
      KvChunking chunking) {
    ByteBuffer stored;
    ValueMetadata.Compression compression;
    if (sentCompressed) {
      stored = ByteBuffer.wrap(value);
      compression = ValueMetadata.Compression.ZSTD;
    } else {
      ValueCodec.Stored encoded = codec.encode(value);
      stored = encoded.value();
      compression =
          encoded.metadata().equals(ValueCodec.ZSTD)
              ? ValueMetadata.Compression.ZSTD
              : ValueMetadata.Compression.NONE;
    }
    if (!chunking.chunked(value.length)) {
      ValueMetadata m = ValueMetadata.inline(nonce, valueSize, compression);
      return new Stored(m, m.encode(), stored);
    }
    CRC32C crc = new CRC32C();
    crc.update(stored.duplicate());
    ValueMetadata m =
        ValueMetadata.chunked(
            nonce,
            valueSize,
            compression,
            chunking.chunkCount(stored.remaining()),
            chunking.chunkSize(),
            stored.remaining(),
            (int) crc.getValue());
    return new Stored(m, m.encode(), stored);
  }

  /**
   * Chunk {@code index} of {@code stored} cut in chunks of {@code chunkSize}: shared, not copied.
   */
  public static ByteBuffer chunk(ByteBuffer stored, int index, int chunkSize) {
    int from = index * chunkSize;
    return stored
        .duplicate()
        .position(stored.position() + from)
        .limit(stored.position() + Math.min(stored.remaining(), from + chunkSize))
        .slice();
  }

  /**
   * The value of a row that holds it (not chunked), from its {@code value} cell: as written, or as
   * stored when {@code raw}.
   */
  public static byte[] inline(ByteBuffer cell, ValueMetadata metadata, boolean raw) {
    return value(ValueMetadata.payload(cell), metadata, raw);
  }

  /** A value from its stored bytes: as written, or as stored when {@code raw}. */
  public static byte[] value(ByteBuffer stored, ValueMetadata metadata, boolean raw) {
    if (metadata.compression() == ValueMetadata.Compression.ZSTD && !raw) {
      return ValueCodec.decode(stored, ValueCodec.ZSTD, 0, 0);
    }
    byte[] bytes = new byte[stored.remaining()];
    stored.duplicate().get(bytes);
    return bytes;
  }

  /**
   * The chunks of one chunked value put together, in any order, and checked against its metadata:
   * every chunk of its expected size, the whole of the stored size and CRC32C. Safe to fill from
   * several threads (each chunk into its own place).
   */
  public static final class Assembly {

    private final ValueMetadata metadata;
    private final byte[] bytes;
    private volatile boolean whole = true;

    /**
     * @throws IllegalArgumentException when the metadata's sizes are out of range (a value or
     *     stored size above {@link KvChunking#MAX_VALUE_BYTES_LIMIT}, a chunk size of 0, a chunk
     *     count that does not match them)
     */
    public Assembly(ValueMetadata metadata) {
      if (metadata.storedSize() > KvChunking.MAX_VALUE_BYTES_LIMIT
          || metadata.valueSize() > KvChunking.MAX_VALUE_BYTES_LIMIT
          || metadata.chunkSize() <= 0
          || metadata.chunks()
              != (metadata.storedSize() + metadata.chunkSize() - 1) / metadata.chunkSize()) {
        throw new IllegalArgumentException("chunked value_metadata out of range: " + metadata);
      }
      this.metadata = metadata;
      this.bytes = new byte[(int) metadata.storedSize()];
    }

    /** Puts chunk {@code index}; a missing one (null) or one of another size spoils the value. */
    public void put(int index, ByteBuffer chunk) {
      long from = (long) index * metadata.chunkSize();
      long expected = Math.min(metadata.chunkSize(), metadata.storedSize() - from);
      if (chunk == null
          || index < 0
          || index >= metadata.chunks()
          || chunk.remaining() != expected) {
        whole = false;
      } else {
        chunk.duplicate().get(bytes, (int) from, (int) expected);
      }
    }

    /**
     * The stored bytes, every chunk put and their CRC32C that of the metadata; null otherwise (a
     * chunk missing, of another size, or the bytes of another version).
     */
    public byte[] stored() {
      if (!whole) {
        return null;
      }
      CRC32C crc = new CRC32C();
      crc.update(bytes);
      return (int) crc.getValue() == metadata.checksum() ? bytes : null;
    }
  }
}
