package io.varve.reshaper.copy;

import java.nio.ByteBuffer;

/**
 * A row a reader of another source type (a Parquet record, a DynamoDB item) converted to the select
 * list's encoded values, or could not convert: then {@link #error} says why and {@link #describe}
 * where the row is. Such rows have no writetime and no TTL.
 *
 * @param values the encoded values in select order; null for a null
 * @param error why the row could not be converted, or null
 * @param where the row in its source, for the bad-rows file (file and record, item key)
 */
public record ConvertedRow(ByteBuffer[] values, String error, String where) implements SourceRow {
  @Override
  public ByteBuffer getBytesUnsafe(int i) {
    return values[i];
  }

  @Override
  public boolean isNull(int i) {
    return values[i] == null;
  }

  @Override
  public long getLong(int i) {
    throw new UnsupportedOperationException("a converted row has no writetime");
  }

  @Override
  public int getInt(int i) {
    throw new UnsupportedOperationException("a converted row has no TTL");
  }

  @Override
  public String describe() {
    return where;
  }
}
