package io.varve.cassandra.kv;

import io.varve.core.kv.ResponseBound;
import io.varve.core.read.ResponseMemory;

/**
 * What one page read (a {@code GetItems} or {@code ScanItems} page) holds of its response memory:
 * {@link ResponseBound#heldBytes} of its items, held as they arrive whenever {@value #STEP} bytes
 * more are due, the rest once the page is known. A read that finds no room stops where the memory
 * ran out, before it fetches the rest of a page of tens of thousands of small items, rather than
 * once the whole page is read. Not thread-safe: one per page, used by the one stream that reads it.
 */
final class PageMemory {

  /** Bytes due before the page holds them while its rows still arrive. */
  static final long STEP = 1 << 20;

  private final ResponseMemory memory;
  private long held;

  PageMemory(ResponseMemory memory) {
    this.memory = memory;
  }

  /**
   * Holds what {@code items} items of {@code bytes} bytes hold beyond what the page held so far,
   * once that is at least {@value #STEP} bytes.
   *
   * @throws io.varve.core.error.VarveException RESOURCE_EXHAUSTED when the memory has no room
   */
  void arrived(long bytes, long items) {
    due(bytes, items, STEP);
  }

  /**
   * Holds the rest of what the page's {@code items} items of {@code bytes} bytes hold, now that the
   * page is known.
   *
   * @throws io.varve.core.error.VarveException RESOURCE_EXHAUSTED when the memory has no room
   */
  void known(long bytes, long items) {
    due(bytes, items, 0);
  }

  private void due(long bytes, long items, long step) {
    long due = ResponseBound.heldBytes(bytes, items) - held;
    if (due >= step) {
      memory.hold(due);
      held += due;
    }
  }
}
