package io.varve.core.kv;

import java.nio.ByteBuffer;

/**
 * A value returned in parts (GetItems, for a client that signalled {@code chunking}), pinned to the
 * version its first part came from: part {@code index} is the next one to return. Carried in the
 * page token from one part to the next, so that every part comes from the same version, whatever
 * was written since.
 *
 * @param index the part this describes, 0-based
 * @param partBytes bytes of every part but the last
 * @param size bytes of the value as returned, all parts together
 * @param crc32c CRC32C of those bytes
 * @param asStored whether the returned bytes are the stored ones (not compressed, or compressed and
 *     returned as stored to a client that signalled zstd); false when a compressed value is
 *     returned decompressed
 * @param generationMicros the version's write time (its token's generation time)
 * @param stored the version's stored metadata: its token nonce, chunks, sizes, checksum and
 *     compression
 */
public record ValueParts(
    int index,
    int partBytes,
    long size,
    int crc32c,
    boolean asStored,
    long generationMicros,
    ValueMetadata stored) {

  /** Parts of the value. */
  public int count() {
    return (int) ((size + partBytes - 1) / partBytes);
  }

  /** The first byte of part {@link #index()}. */
  public long start() {
    return (long) index * partBytes;
  }

  /** The byte after part {@link #index()}. */
  public long end() {
    return Math.min(size, start() + partBytes);
  }

  /** Whether this is the value's last part. */
  public boolean last() {
    return index == count() - 1;
  }

  /** The same value at part {@code part}. */
  public ValueParts at(int part) {
    return new ValueParts(part, partBytes, size, crc32c, asStored, generationMicros, stored);
  }

  /** Bytes of {@link #encode}. */
  int encodedBytes() {
    return 4 + 4 + 8 + 4 + 1 + 8 + 4 + stored.encode().length;
  }

  void encode(ByteBuffer out) {
    byte[] metadata = stored.encode();
    out.putInt(index)
        .putInt(partBytes)
        .putLong(size)
        .putInt(crc32c)
        .put((byte) (asStored ? 1 : 0))
        .putLong(generationMicros)
        .putInt(metadata.length)
        .put(metadata);
  }

  /**
   * The parts encoded at {@code in}'s position, to its end.
   *
   * @throws IllegalArgumentException when they are malformed or do not describe a value in parts
   */
  static ValueParts decode(ByteBuffer in) {
    int index = in.getInt();
    int partBytes = in.getInt();
    long size = in.getLong();
    int crc = in.getInt();
    byte asStored = in.get();
    long generation = in.getLong();
    int length = in.getInt();
    if (length != in.remaining() || partBytes <= 0 || size <= 0 || asStored > 1 || asStored < 0) {
      throw new IllegalArgumentException("malformed value parts");
    }
    ValueMetadata stored = ValueMetadata.decode(in.slice());
    in.position(in.limit());
    ValueParts parts =
        new ValueParts(index, partBytes, size, crc, asStored == 1, generation, stored);
    if (index < 0 || index >= parts.count()) {
      throw new IllegalArgumentException("part out of range");
    }
    return parts;
  }
}
