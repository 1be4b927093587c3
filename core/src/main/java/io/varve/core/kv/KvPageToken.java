package io.varve.core.kv;

import io.varve.core.error.InvalidFieldException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * The payload of a GetItems page token (signed and bound to its request by {@link
 * io.varve.core.read.PageTokens}): the last key returned, the items returned so far (for {@code
 * item_limit}), the average item size seen (the adaptive fetch size of the next page) and the
 * largest item seen (whether sizes vary enough that the next page plans its rows by their sizes
 * first, {@link FetchSizes#firstFetch}).
 *
 * <p>When the page returned a part of a value ({@link ValueParts}), the token continues inside that
 * value: {@code lastKey} is the value's key, {@code inside} the next part and the version it is
 * pinned to; after the value's last part the token is a plain one after its key.
 *
 * <p>The largest size, then the position inside a value, come last in the encoding, each optional,
 * so a token of a server that did not write them still decodes (with 0: not known; and not inside a
 * value).
 */
public record KvPageToken(
    byte[] lastKey,
    long returnedSoFar,
    long averageItemBytes,
    long largestItemBytes,
    ValueParts inside) {

  /** The token kind of GetItems, apart from the TimeSeries ones. */
  public static final byte KIND = 10;

  /** A token between items: not inside a value. */
  public KvPageToken(
      byte[] lastKey, long returnedSoFar, long averageItemBytes, long largestItemBytes) {
    this(lastKey, returnedSoFar, averageItemBytes, largestItemBytes, null);
  }

  public byte[] encode() {
    ByteBuffer out =
        ByteBuffer.allocate(
            8 + 8 + 4 + lastKey.length + 8 + (inside == null ? 0 : inside.encodedBytes()));
    out.putLong(returnedSoFar)
        .putLong(averageItemBytes)
        .putInt(lastKey.length)
        .put(lastKey)
        .putLong(largestItemBytes);
    if (inside != null) {
      inside.encode(out);
    }
    return out.array();
  }

  public static KvPageToken decode(byte[] payload, String field) {
    try {
      ByteBuffer in = ByteBuffer.wrap(payload);
      long returned = in.getLong();
      long average = in.getLong();
      int length = in.getInt();
      int after = in.remaining() - length;
      if (length < 0 || (after != 0 && after < 8) || returned < 0 || average < 0) {
        throw malformed(field);
      }
      byte[] key = new byte[length];
      in.get(key);
      long largest = after >= 8 ? in.getLong() : 0;
      if (largest < 0) {
        throw malformed(field);
      }
      ValueParts inside = in.hasRemaining() ? ValueParts.decode(in) : null;
      return new KvPageToken(key, returned, average, largest, inside);
    } catch (BufferUnderflowException | IllegalArgumentException e) {
      throw malformed(field);
    }
  }

  private static InvalidFieldException malformed(String field) {
    return new InvalidFieldException(
        field, "(token)", "a next_page_token returned for this same request");
  }
}
