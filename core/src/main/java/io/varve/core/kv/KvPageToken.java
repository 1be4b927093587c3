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
 * <p>The largest size comes last in the encoding, so a token of a server that did not write it
 * still decodes (with 0: not known).
 */
public record KvPageToken(
    byte[] lastKey, long returnedSoFar, long averageItemBytes, long largestItemBytes) {

  /** The token kind of GetItems, apart from the TimeSeries ones. */
  public static final byte KIND = 10;

  public byte[] encode() {
    return ByteBuffer.allocate(8 + 8 + 4 + lastKey.length + 8)
        .putLong(returnedSoFar)
        .putLong(averageItemBytes)
        .putInt(lastKey.length)
        .put(lastKey)
        .putLong(largestItemBytes)
        .array();
  }

  public static KvPageToken decode(byte[] payload, String field) {
    try {
      ByteBuffer in = ByteBuffer.wrap(payload);
      long returned = in.getLong();
      long average = in.getLong();
      int length = in.getInt();
      int after = in.remaining() - length;
      if (length < 0 || (after != 0 && after != 8) || returned < 0 || average < 0) {
        throw new InvalidFieldException(
            field, "(token)", "a next_page_token returned for this same request");
      }
      byte[] key = new byte[length];
      in.get(key);
      long largest = after == 8 ? in.getLong() : 0;
      if (largest < 0) {
        throw new InvalidFieldException(
            field, "(token)", "a next_page_token returned for this same request");
      }
      return new KvPageToken(key, returned, average, largest);
    } catch (BufferUnderflowException e) {
      throw new InvalidFieldException(
          field, "(token)", "a next_page_token returned for this same request");
    }
  }
}
