package io.varve.format;

import com.github.luben.zstd.Zstd;
import io.varve.core.error.VarveException;
import java.nio.ByteBuffer;

/**
 * Post-processing of item values before they are stored, recorded in the row's {@code
 * value_metadata} so that readers undo it. Values of at least {@code threshold} bytes are
 * zstd-compressed (level 1) and stored compressed when that saves at least an eighth; {@code
 * value_metadata} is then {@code "compression=zstd"}, otherwise the empty string. A value larger
 * than {@value #PROBE_BYTES} bytes is judged by its first {@value #PROBE_BYTES} first: when they do
 * not compress by an eighth, the value is stored as given without compressing the rest. Values that
 * are already compressed or encrypted (images, archives, ciphertext) then cost a compression of 64
 * KiB instead of all their bytes: about 15 ms of CPU and a buffer of its size saved per 16 MiB. A
 * value whose start is incompressible but whose rest would compress is stored plain.
 *
 * <p>Every write sets {@code value_metadata} together with the value, in the same statement and so
 * with the same write timestamp: an overwrite of a compressed value by a plain one must also
 * overwrite the marker. Rows written before that rule can hold a marker older than their value (a
 * plain value under a stale {@code compression=zstd}); readers compare the two cells' write
 * timestamps and ignore a marker older than its value ({@link #decode}). Two versions of one row
 * written in the same batch share its timestamp, and Cassandra keeps the larger cell of each, so
 * the marker {@code compression=zstd} of one version could stand beside the plain value of the
 * other (the write path keeps one version per row and batch since): a marker as old as its value on
 * bytes that are no zstd frame is read as that plain value.
 */
public final class ValueCodec {

  public static final String ZSTD = "compression=zstd";

  /**
   * The marker of a value stored as given (a live empty cell, not a null, which would be a
   * tombstone).
   */
  public static final String NONE = "";

  /**
   * The threshold of a server that sets no {@code cassandra.compressionThreshold}, and of a Spark
   * data source that sets no {@code compressionThreshold}.
   */
  public static final int DEFAULT_THRESHOLD = 4096;

  private static final int ZSTD_MAGIC = 0xFD2FB528;

  /** The bytes of a value's start compressed to judge a larger value. */
  static final int PROBE_BYTES = 64 * 1024;

  private final int threshold;

  public ValueCodec(int threshold) {
    this.threshold = threshold;
  }

  /** The stored form of a value. */
  public record Stored(ByteBuffer value, String metadata) {}

  public Stored encode(byte[] value) {
    if (value.length >= threshold && (value.length <= PROBE_BYTES || startCompresses(value))) {
      byte[] compressed = Zstd.compress(value, 1);
      if (saves(compressed.length, value.length)) {
        return new Stored(ByteBuffer.wrap(compressed), ZSTD);
      }
    }
    return new Stored(ByteBuffer.wrap(value), NONE);
  }

  private static boolean startCompresses(byte[] value) {
    byte[] probe = new byte[(int) Zstd.compressBound(PROBE_BYTES)];
    long size = Zstd.compressByteArray(probe, 0, probe.length, value, 0, PROBE_BYTES, 1);
    return !Zstd.isError(size) && saves(size, PROBE_BYTES);
  }

  private static boolean saves(long compressed, long plain) {
    return compressed <= plain - plain / 8;
  }

  /**
   * The value as written, from its stored cells.
   *
   * @param valueWritetime write timestamp of {@code event_item_value} (microseconds)
   * @param metadataWritetime write timestamp of {@code value_metadata}; ignored when {@code
   *     metadata} is null
   * @throws CorruptValueException when a current {@code compression=zstd} marker sits on bytes that
   *     are not one whole zstd frame, or the marker is unknown
   */
  public static byte[] decode(
      ByteBuffer stored, String metadata, long valueWritetime, long metadataWritetime) {
    byte[] bytes = new byte[stored == null ? 0 : stored.remaining()];
    if (stored != null) {
      stored.duplicate().get(bytes);
    }
    if (metadata == null || metadata.isEmpty() || metadataWritetime < valueWritetime) {
      return bytes;
    }
    if (metadata.equals(ZSTD)) {
      if (bytes.length < 4
          || ByteBuffer.wrap(bytes, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt()
              != ZSTD_MAGIC) {
        if (metadataWritetime == valueWritetime) {
          return bytes; // a plain version's value beside another version's marker, same batch
        }
        throw new CorruptValueException(
            "value marked " + ZSTD + " is not a zstd frame (" + bytes.length + " bytes)");
      }
      // decompressedSize, not getFrameContentSize: the zstd-jni Spark 3.5 brings (1.5.5) has only
      // this one; it answers 0 for a frame without a content size, which no encode writes (only
      // values of at least one byte are compressed)
      long size = Zstd.decompressedSize(bytes, 0, bytes.length, false);
      if (size <= 0 || size > Integer.MAX_VALUE) {
        throw new CorruptValueException(
            "value marked " + ZSTD + " has no valid frame content size (" + size + ")");
      }
      try {
        return Zstd.decompress(bytes, (int) size);
      } catch (RuntimeException e) {
        throw new CorruptValueException(
            "value marked " + ZSTD + " does not decompress: " + e.getMessage());
      }
    }
    throw new CorruptValueException("unknown value_metadata '" + metadata + "'");
  }

  /**
   * The content size the zstd frame starting at {@code start} declares, or -1 when the bytes do not
   * start a zstd frame that declares one: how a value a client compressed and staged in parts is
   * sized from its first part.
   */
  public static long frameContentSize(ByteBuffer start) {
    byte[] bytes = new byte[Math.min(start.remaining(), 32)];
    start.duplicate().get(bytes);
    if (bytes.length < 4
        || ByteBuffer.wrap(bytes, 0, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt()
            != ZSTD_MAGIC) {
      return -1;
    }
    long size = Zstd.decompressedSize(bytes, 0, bytes.length, false);
    return size <= 0 ? -1 : size;
  }

  /** A stored value that cannot be decoded: data written outside Varve or damaged on disk. */
  public static final class CorruptValueException extends VarveException {
    public CorruptValueException(String message) {
      super(Kind.INTERNAL, message);
    }
  }
}
