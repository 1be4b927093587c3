package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.cql.Row;
import java.nio.ByteBuffer;

/**
 * One row a reader produced, its values in the plan's select order and encoded as CQL encodes the
 * source column's type: a row of a range scan, or a record of a Parquet file converted.
 */
public interface SourceRow {
  /** The encoded value at {@code i}, or null. */
  ByteBuffer getBytesUnsafe(int i);

  /** True when the value at {@code i} is null. */
  boolean isNull(int i);

  /** The bigint at {@code i} (a writetime). */
  long getLong(int i);

  /** The int at {@code i} (a TTL). */
  int getInt(int i);

  /**
   * Why this row could not be read (a value of a file that does not fit its column), or null. A row
   * with an error is a bad row, kept as {@link #describe}.
   */
  default String error() {
    return null;
  }

  /** The row as its source holds it, for the bad-rows file of a row with an {@link #error}. */
  default String describe() {
    return "";
  }

  /** A row the driver read. */
  static SourceRow of(Row row) {
    return new SourceRow() {
      @Override
      public ByteBuffer getBytesUnsafe(int i) {
        return row.getBytesUnsafe(i);
      }

      @Override
      public boolean isNull(int i) {
        return row.isNull(i);
      }

      @Override
      public long getLong(int i) {
        return row.getLong(i);
      }

      @Override
      public int getInt(int i) {
        return row.getInt(i);
      }
    };
  }
}
