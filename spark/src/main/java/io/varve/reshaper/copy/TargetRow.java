package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TargetColumn;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

/**
 * One row as it will be written to the target: encoded values in target column order, and the
 * writetime and TTL of each cell when they are kept.
 */
public final class TargetRow implements Serializable {
  private static final long serialVersionUID = 1L;

  /** Marks a cell without a known writetime. */
  public static final long NO_WRITETIME = Long.MIN_VALUE;

  final byte[][] values;
  final long[] writetimes;
  final int[] ttls;
  final long newestWritetime;

  TargetRow(byte[][] values, long[] writetimes, int[] ttls, long newestWritetime) {
    this.values = values;
    this.writetimes = writetimes;
    this.ttls = ttls;
    this.newestWritetime = newestWritetime;
  }

  /** Converts a scanned source row. */
  static TargetRow from(SourceRow row, MigrationPlan plan, boolean keepTimes) {
    List<TargetColumn> columns = plan.target().columns();
    byte[][] values = new byte[columns.size()][];
    long[] writetimes = keepTimes ? new long[columns.size()] : null;
    int[] ttls = keepTimes ? new int[columns.size()] : null;
    for (int i = 0; i < values.length; i++) {
      TargetColumn c = columns.get(i);
      values[i] = c.sourceIndex() >= 0 ? bytes(row.getBytesUnsafe(c.sourceIndex())) : c.constant();
      if (keepTimes) {
        writetimes[i] =
            c.writetimeIndex() >= 0 && !row.isNull(c.writetimeIndex())
                ? row.getLong(c.writetimeIndex())
                : NO_WRITETIME;
        ttls[i] = c.ttlIndex() >= 0 && !row.isNull(c.ttlIndex()) ? row.getInt(c.ttlIndex()) : 0;
      }
    }
    long newest = NO_WRITETIME;
    for (int index : plan.resolution().newestWritetimeIndexes()) {
      if (!row.isNull(index)) {
        newest = Math.max(newest, row.getLong(index));
      }
    }
    return new TargetRow(values, writetimes, ttls, newest);
  }

  /** The encoded value of target column {@code i}, or null; not a copy: do not change it. */
  public byte[] value(int i) {
    return values[i];
  }

  static byte[] bytes(ByteBuffer buffer) {
    if (buffer == null) {
      return null;
    }
    byte[] out = new byte[buffer.remaining()];
    buffer.duplicate().get(out);
    return out;
  }

  /** The first {@code count} values: the partition key or the primary key. */
  RowKey key(int count) {
    return new RowKey(Arrays.copyOf(values, count));
  }

  boolean samePrefix(TargetRow other, int count) {
    for (int i = 0; i < count; i++) {
      if (!Arrays.equals(values[i], other.values[i])) {
        return false;
      }
    }
    return true;
  }

  /** Bytes Cassandra counts for a row in a batch: its liveness info and its row deletion. */
  static final int BATCH_ROW_OVERHEAD = 24;

  /** Bytes Cassandra counts for a cell in a batch besides its value: timestamp, TTL, deletion. */
  static final int BATCH_CELL_OVERHEAD = 20;

  /**
   * The size Cassandra gives this row in a batch, the size it compares with {@code
   * batch_size_warn_threshold} (5 KiB by default) and logs a warning for on every batch above it:
   * the clustering values, {@value #BATCH_ROW_OVERHEAD} bytes, and each other non-null value with
   * {@value #BATCH_CELL_OVERHEAD} bytes. The partition key is left out (Cassandra counts it once
   * per partition, not per row); a non-frozen collection counts as one cell, where Cassandra counts
   * a cell per element.
   */
  int batchBytes(int partitionKeyCount, int primaryKeyCount) {
    int size = BATCH_ROW_OVERHEAD;
    for (int i = partitionKeyCount; i < values.length; i++) {
      byte[] v = values[i];
      if (v != null) {
        size += v.length + (i < primaryKeyCount ? 0 : BATCH_CELL_OVERHEAD);
      }
    }
    return size;
  }

  /** Encoded size of the values, for rate limits and the grouping of a re-partitioning. */
  int sizeBytes() {
    int size = 0;
    for (byte[] v : values) {
      size += v == null ? 0 : v.length;
    }
    return size;
  }

  /** Compares values column by column, bytes unsigned, a missing value first. */
  int compareValues(TargetRow other) {
    for (int i = 0; i < values.length; i++) {
      byte[] a = values[i];
      byte[] b = other.values[i];
      int c = a == null ? (b == null ? 0 : -1) : b == null ? 1 : Arrays.compareUnsigned(a, b);
      if (c != 0) {
        return c;
      }
    }
    return 0;
  }

  /** Every column of the row in CQL literal form, for bad-rows files of other target types. */
  public String describe(MigrationPlan plan) {
    return describe(plan, values.length);
  }

  /** The row in CQL literal form, for bad-rows files and reports. */
  String describe(MigrationPlan plan, int columnCount) {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < columnCount; i++) {
      TargetColumn c = plan.target().columns().get(i);
      out.append(i == 0 ? "" : ", ").append(c.name()).append('=').append(format(c, values[i]));
    }
    return out.append('}').toString();
  }

  static String format(TargetColumn column, byte[] value) {
    if (value == null) {
      return "null";
    }
    TypeCodec<Object> codec = CodecRegistry.DEFAULT.codecFor(column.type());
    return codec.format(codec.decode(ByteBuffer.wrap(value), ProtocolVersion.DEFAULT));
  }
}
