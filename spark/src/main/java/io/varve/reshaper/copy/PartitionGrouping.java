package io.varve.reshaper.copy;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hands rows on grouped by target partition, a bounded window at a time: a re-partitioning copy
 * ({@code timeSlice}) reads a source partition whose consecutive rows fall in different target
 * partitions (each event's bucket is a hash of it), and a writer packing rows in order would send
 * them in batches of one row per partition. Within a window of at most {@value #MAX_ROWS} rows or
 * {@value #MAX_BYTES} bytes the rows of one target partition go on together, partitions in the
 * order of their first row, rows in the order read. Not thread-safe, like the sink it feeds.
 */
final class PartitionGrouping implements RowSink {

  static final int MAX_ROWS = 4096;
  static final long MAX_BYTES = 16L << 20;

  private final RowSink next;
  private final int partitionKeyCount;
  private final Map<RowKey, List<TargetRow>> window = new LinkedHashMap<>();
  private int rows;
  private long bytes;

  PartitionGrouping(RowSink next, int partitionKeyCount) {
    this.next = next;
    this.partitionKeyCount = partitionKeyCount;
  }

  @Override
  public void accept(TargetRow row) {
    window.computeIfAbsent(row.key(partitionKeyCount), k -> new ArrayList<>()).add(row);
    rows++;
    bytes += row.sizeBytes();
    if (rows >= MAX_ROWS || bytes >= MAX_BYTES) {
      flush();
    }
  }

  /** Hands on the rows of the window. */
  void flush() {
    for (List<TargetRow> partition : window.values()) {
      partition.forEach(next::accept);
    }
    window.clear();
    rows = 0;
    bytes = 0;
  }

  @Override
  public void finish() {
    flush();
    next.finish();
  }
}
