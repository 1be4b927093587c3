package io.varve.core.kv;

import io.varve.core.error.InvalidFieldException;
import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The payload of a ScanItems page token (signed and bound to its request by {@link
 * io.varve.core.read.PageTokens}): the position of the last row the segment consumed — its record's
 * token, the record id and the item key — the items returned so far (for {@code item_limit}) and
 * the average item size seen (the fetch size of the next page).
 */
public record ScanPageToken(
    long lastToken, String lastId, byte[] lastKey, long returnedSoFar, long averageItemBytes) {

  /** The token kind of ScanItems, apart from GetItems' and the TimeSeries ones. */
  public static final byte KIND = 11;

  public byte[] encode() {
    byte[] id = lastId.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(8 + 8 + 8 + 4 + id.length + 4 + lastKey.length)
        .putLong(lastToken)
        .putLong(returnedSoFar)
        .putLong(averageItemBytes)
        .putInt(id.length)
        .put(id)
        .putInt(lastKey.length)
        .put(lastKey)
        .array();
  }

  public static ScanPageToken decode(byte[] payload, String field) {
    try {
      ByteBuffer in = ByteBuffer.wrap(payload);
      long token = in.getLong();
      long returned = in.getLong();
      long average = in.getLong();
      byte[] id = bytes(in, field);
      byte[] key = bytes(in, field);
      if (in.hasRemaining() || returned < 0 || average < 0) {
        throw malformed(field);
      }
      return new ScanPageToken(
          token, new String(id, StandardCharsets.UTF_8), key, returned, average);
    } catch (BufferUnderflowException e) {
      throw malformed(field);
    }
  }

  private static byte[] bytes(ByteBuffer in, String field) {
    int length = in.getInt();
    if (length < 0 || length > in.remaining()) {
      throw malformed(field);
    }
    byte[] bytes = new byte[length];
    in.get(bytes);
    return bytes;
  }

  private static InvalidFieldException malformed(String field) {
    return new InvalidFieldException(
        field, "(token)", "a next_page_token returned for this same request");
  }
}
