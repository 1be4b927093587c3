package io.varve.core.kv;

import io.varve.core.error.InvalidFieldException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;

/**
 * The payload of a GetItems page token (signed and bound to its request by {@link
 * io.varve.core.read.PageTokens}): the last key returned, the items returned so far (for {@code
 * item_limit}) and the average item size seen (the adaptive fetch size of the next page).
 */
public record KvPageToken(byte[] lastKey, long returnedSoFar, long averageItemBytes) {

  /** The token kind of GetItems, apart from the TimeSeries ones. */
  public static final byte KIND = 10;

  public byte[] encode() {
    return ByteBuffer.allocate(8 + 8 + 4 + lastKey.length)
        .putLong(returnedSoFar)
        .putLong(averageItemBytes)
        .putInt(lastKey.length)
        .put(lastKey)
        .array();
  }

  public static KvPageToken decode(byte[] payload, String field) {
    try {
      ByteBuffer in = ByteBuffer.wrap(payload);
      long returned = in.getLong();
      long average = in.getLong();
      int length = in.getInt();
      if (length != in.remaining() || returned < 0 || average < 0) {
        throw new InvalidFieldException(
            field, "(token)", "a next_page_token returned for this same request");
      }
      byte[] key = new byte[length];
      in.get(key);
      return new KvPageToken(key, returned, average);
    } catch (BufferUnderflowException e) {
      throw new InvalidFieldException(
          field, "(token)", "a next_page_token returned for this same request");
    }
  }
}
