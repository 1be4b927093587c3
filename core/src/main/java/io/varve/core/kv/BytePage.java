package io.varve.core.kv;

/**
 * Fills one GetItems page under a byte bound and an item limit. An item is taken while the page
 * stays within {@code pageSizeBytes}; the first item of a page is always taken, so a single item
 * larger than the bound comes alone rather than never. Not thread-safe (one per request).
 */
public final class BytePage {

  /** Why the page stopped taking items. */
  public enum Stop {
    NONE,
    FULL,
    LIMIT
  }

  private final long pageSizeBytes;
  private final long remainingItems;
  private long bytes;
  private int items;
  private Stop stop = Stop.NONE;

  /**
   * @param pageSizeBytes the page's byte bound
   * @param remainingItems items the request may still return across its pages
   */
  public BytePage(long pageSizeBytes, long remainingItems) {
    this.pageSizeBytes = pageSizeBytes;
    this.remainingItems = remainingItems;
    if (remainingItems <= 0) {
      stop = Stop.LIMIT;
    }
  }

  /**
   * A page in the same state as this one: to plan which of the next items would fit, without taking
   * them.
   */
  public BytePage copy() {
    BytePage copy = new BytePage(pageSizeBytes, remainingItems);
    copy.bytes = bytes;
    copy.items = items;
    copy.stop = stop;
    return copy;
  }

  /**
   * Whether an item of {@code size} bytes goes into this page; once refused, every later one is
   * too.
   */
  public boolean offer(long size) {
    if (stop != Stop.NONE) {
      return false;
    }
    if (items > 0 && bytes + size > pageSizeBytes) {
      stop = Stop.FULL;
      return false;
    }
    bytes += size;
    items++;
    if (items >= remainingItems) {
      stop = Stop.LIMIT;
    }
    return true;
  }

  /** Whether the page is complete: full, or at the item limit. */
  public boolean done() {
    return stop != Stop.NONE;
  }

  /** Whether a next page may hold more items: the page stopped because it was full. */
  public boolean more() {
    return stop == Stop.FULL;
  }

  public long bytes() {
    return bytes;
  }

  /** Bytes the page may still take (a first item is taken whatever its size). */
  public long remainingBytes() {
    return Math.max(0, pageSizeBytes - bytes);
  }

  /** Items the page may still take before the request's item limit. */
  public long remainingItems() {
    return remainingItems == Long.MAX_VALUE ? Long.MAX_VALUE : remainingItems - items;
  }

  public int items() {
    return items;
  }
}
