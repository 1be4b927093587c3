package io.varve.cassandra.events;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The largest row of each slice table that this store has written or read lately, so that a read
 * asks Cassandra for as many rows as make about {@link #FETCH_BYTES}: a row count alone lets a page
 * of large items add up to hundreds of MiB that the node holds at once to answer it (a few
 * concurrent reads of events of 2 MiB items brought a node of 1 GiB heap down).
 *
 * <p>The largest row is kept over two windows of {@link #WINDOW_NANOS}, so that a table whose large
 * rows are gone comes back to larger fetches. A table this store has not seen is assumed to hold
 * rows of {@link #UNKNOWN_ROW_BYTES}, so its first fetch is a few rows; what that fetch brings
 * sizes the next. A table written with large items through another server and read here with the
 * sizes of small rows is learned from its first page only: see docs/limits.md.
 *
 * <p>Bounded: past {@link #MAX_TABLES} tables the sizes are forgotten, which only makes the next
 * fetches small. Thread-safe.
 */
final class RowSizes {

  /** What one fetch of a partition read should bring at most, about, in keys and values. */
  static final long FETCH_BYTES = 4L << 20;

  /** The row size assumed of a table not seen yet: a fetch of it asks for four rows. */
  static final long UNKNOWN_ROW_BYTES = 1L << 20;

  static final long WINDOW_NANOS = 10L * 60 * 1_000_000_000L;

  static final int MAX_TABLES = 10_000;

  private record Largest(long windowStart, long current, long previous) {
    long value() {
      return Math.max(current, previous);
    }
  }

  private final Map<String, Largest> tables = new ConcurrentHashMap<>();
  private final LongSupplier nanoTime;

  RowSizes() {
    this(System::nanoTime);
  }

  RowSizes(LongSupplier nanoTime) {
    this.nanoTime = nanoTime;
  }

  /**
   * The largest row of the table seen in the last one or two windows, or {@link #UNKNOWN_ROW_BYTES}
   * when none was.
   */
  long largest(String keyspace, String table) {
    Largest largest = tables.get(key(keyspace, table));
    long value = largest == null ? 0 : rolled(largest).value();
    return value > 0 ? value : UNKNOWN_ROW_BYTES;
  }

  /**
   * Records that the largest of some rows written or read was {@code bytes} (key and value as
   * stored); nothing when there were none ({@code bytes} 0).
   */
  void saw(String keyspace, String table, long bytes) {
    if (bytes <= 0) {
      return;
    }
    if (tables.size() >= MAX_TABLES && !tables.containsKey(key(keyspace, table))) {
      tables.clear();
    }
    tables.compute(
        key(keyspace, table),
        (k, old) -> {
          long row = bytes;
          if (old == null) {
            return new Largest(nanoTime.getAsLong(), row, 0);
          }
          Largest now = rolled(old);
          return row <= now.current() ? now : new Largest(now.windowStart(), row, now.previous());
        });
  }

  /**
   * How many rows a fetch should ask for: as many as make {@link #FETCH_BYTES} at {@code rowBytes}
   * each, between 1 and {@code most}.
   */
  static int rows(long rowBytes, int most) {
    return (int) Math.max(1, Math.min(most, FETCH_BYTES / Math.max(1, rowBytes)));
  }

  private Largest rolled(Largest largest) {
    long now = nanoTime.getAsLong();
    long age = now - largest.windowStart();
    if (age < WINDOW_NANOS) {
      return largest;
    }
    return age < 2 * WINDOW_NANOS ? new Largest(now, 0, largest.current()) : new Largest(now, 0, 0);
  }

  private static String key(String keyspace, String table) {
    return keyspace + '.' + table;
  }
}
