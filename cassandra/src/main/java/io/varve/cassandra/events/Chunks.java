package io.varve.cassandra.events;

import java.util.ArrayList;
import java.util.List;
import java.util.function.ToLongFunction;

/** Cuts a list, in order, into consecutive runs bounded in items and bytes. */
final class Chunks {

  private Chunks() {}

  /**
   * Runs of at most {@code maxItems} items whose sizes add up to at most {@code maxBytes}; an item
   * is never split, so one larger than {@code maxBytes} forms a run of its own.
   */
  static <T> List<List<T>> of(List<T> items, ToLongFunction<T> bytes, long maxBytes, int maxItems) {
    List<List<T>> chunks = new ArrayList<>();
    List<T> current = new ArrayList<>();
    long size = 0;
    for (T item : items) {
      long itemBytes = bytes.applyAsLong(item);
      if (!current.isEmpty() && (current.size() == maxItems || size + itemBytes > maxBytes)) {
        chunks.add(current);
        current = new ArrayList<>();
        size = 0;
      }
      current.add(item);
      size += itemBytes;
    }
    if (!current.isEmpty()) {
      chunks.add(current);
    }
    return chunks;
  }
}
