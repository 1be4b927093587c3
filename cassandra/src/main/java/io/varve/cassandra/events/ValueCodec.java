package io.varve.cassandra.events;

import com.github.luben.zstd.Zstd;
import java.nio.ByteBuffer;

/**
 * Post-processing of item values before they are stored, recorded in the row's
 * {@code value_metadata} so that readers undo it. Values of at least {@code threshold} bytes are
 * zstd-compressed (level 1) and stored compressed when that saves at least an eighth;
 * {@code value_metadata} is then {@code "compression=zstd"}, otherwise null.
 */
public final class ValueCodec {

  public static final String ZSTD = "compression=zstd";

  private final int threshold;

  public ValueCodec(int threshold) {
    this.threshold = threshold;
  }

  /** The stored form of a value. */
  public record Stored(ByteBuffer value, String metadata) {}

  public Stored encode(byte[] value) {
    if (value.length >= threshold) {
      byte[] compressed = Zstd.compress(value, 1);
      if (compressed.length <= value.length - value.length / 8) {
        return new Stored(ByteBuffer.wrap(compressed), ZSTD);
      }
    }
    return new Stored(ByteBuffer.wrap(value), null);
  }

  public static byte[] decode(ByteBuffer stored, String metadata) {
    byte[] bytes = new byte[stored == null ? 0 : stored.remaining()];
    if (stored != null) {
      stored.duplicate().get(bytes);
    }
    if (metadata == null || metadata.isEmpty()) {
      return bytes;
    }
    if (metadata.equals(ZSTD)) {
      long size = Zstd.getFrameContentSize(bytes);
      if (size < 0 || size > Integer.MAX_VALUE) {
        throw new IllegalStateException("corrupt zstd value: frame content size " + size);
      }
      return Zstd.decompress(bytes, (int) size);
    }
    throw new IllegalStateException("unknown value_metadata '" + metadata + "'");
  }
}
