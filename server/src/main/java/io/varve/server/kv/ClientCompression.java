package io.varve.server.kv;

import com.github.luben.zstd.Zstd;
import io.varve.core.error.InvalidFieldException;

/**
 * Checks a value a client sent zstd-compressed before it is stored as sent: one zstd frame that
 * declares its content size, within a bound, and that decompresses to exactly that size. A frame
 * declaring more than the bound (a zip bomb) is refused before anything is decompressed.
 */
final class ClientCompression {

  /** The wire name of zstd in {@code ItemMetadata.compression}. */
  static final String ZSTD = "zstd";

  private ClientCompression() {}

  /**
   * The decompressed size of {@code value}.
   *
   * @param field the field to name in an error
   * @param max the most bytes it may decompress to
   * @throws InvalidFieldException when it is not such a frame or decompresses to more than {@code
   *     max}
   */
  static long decompressedSize(String field, byte[] value, long max) {
    long declared = value.length < 4 ? -1 : Zstd.getFrameContentSize(value);
    if (declared < 0) {
      throw new InvalidFieldException(
          field,
          value.length + " bytes",
          "one zstd frame that declares its content size (metadata.compression is zstd)");
    }
    if (declared > max) {
      throw new InvalidFieldException(
          field,
          "a zstd frame of " + declared + " bytes decompressed",
          "at most " + max + " bytes decompressed (kv.chunks.maxValueBytes)");
    }
    try {
      byte[] plain = Zstd.decompress(value, (int) declared);
      if (plain.length != declared) {
        throw new IllegalArgumentException(plain.length + " bytes, not " + declared);
      }
    } catch (RuntimeException e) {
      throw new InvalidFieldException(
          field, value.length + " bytes", "a zstd frame that decompresses: " + e.getMessage());
    }
    return declared;
  }
}
