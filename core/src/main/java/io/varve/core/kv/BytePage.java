package io.varve.core.kv;

/**
 * Fills one GetItems or ScanItems page under a byte bound, an item limit and the client's message
 * bound ({@link ResponseBound}). An item is taken while the page stays within {@code pageSizeBytes}
 * and its message within the bound; the first item of a page is always taken, so a single item
 * larger than {@code pageSizeBytes} comes alone rather than never. A first item that fits no
 * message is taken as a value in parts when the client takes parts ({@link #inParts()}: it is then
 * the page's only item), and refused otherwise (FAILED_PRECONDITION, saying what to send); a value
 * that would go in parts after other items stops the page before it. A page holds at most {@link
 * #MAX_ITEMS} items. Not thread-safe (one per request).
 */
public final class BytePage {

  /** Why the page stopped taking items. */
  public enum Stop {
    NONE,
    FULL,
    LIMIT,
    /** The page's one item is a value returned in parts: the next page continues it. */
    PARTS
  }

  /**
   * Most items of one page, whatever their size: a page of 2 MiB of 100-byte items holds about
   * 21,000; without it, a page of 16 MiB of 3-byte items would hold over five million, each a few
   * hundred bytes of objects on the server. A page that reaches it is full: the next page goes on.
   */
  public static final int MAX_ITEMS = 65_536;

  private static final byte[] NO_KEY = new byte[0];

  private final long pageSizeBytes;
  private final long remainingItems;
  private final ResponseBound bound;
  private final long itemRoom;
  private long bytes;
  private int items;
  private Stop stop = Stop.NONE;

  /**
   * @param pageSizeBytes the page's byte bound
   * @param remainingItems items the request may still return across its pages
   */
  public BytePage(long pageSizeBytes, long remainingItems) {
    this(pageSizeBytes, remainingItems, ResponseBound.NONE);
  }

  /**
   * @param pageSizeBytes the page's byte bound
   * @param remainingItems items the request may still return across its pages
   * @param bound the largest message the client takes, and whether it takes values in parts
   */
  public BytePage(long pageSizeBytes, long remainingItems, ResponseBound bound) {
    this.pageSizeBytes = pageSizeBytes;
    this.remainingItems = remainingItems;
    this.bound = bound;
    this.itemRoom = bound.itemRoom();
    if (remainingItems <= 0) {
      stop = Stop.LIMIT;
    }
  }

  /**
   * A page in the same state as this one: to plan which of the next items would fit, without taking
   * them.
   */
  public BytePage copy() {
    BytePage copy = new BytePage(pageSizeBytes, remainingItems, bound);
    copy.bytes = bytes;
    copy.items = items;
    copy.stop = stop;
    return copy;
  }

  /**
   * Whether an item of {@code size} bytes (key and value) goes into this page; once refused, every
   * later one is too.
   */
  public boolean offer(long size) {
    return offer(NO_KEY, size);
  }

  /**
   * Whether the item of {@code key}, of {@code size} bytes with its key (and, in a scan, its record
   * id), goes into this page; once refused, every later one is too.
   *
   * @throws io.varve.core.error.VarveException FAILED_PRECONDITION when it is the page's first
   *     item, fits no message of the client's bound and the client takes no parts
   */
  public boolean offer(byte[] key, long size) {
    if (stop != Stop.NONE) {
      return false;
    }
    // the message's items with this one, each with its overhead: no state kept per item
    long message = bytes + size + (items + 1L) * ResponseBound.ITEM_OVERHEAD_BYTES;
    if (items > 0) {
      if (bytes + size > pageSizeBytes
          || items >= MAX_ITEMS
          || message > itemRoom
          || bound.inParts(key.length, size)) {
        stop = Stop.FULL;
        return false;
      }
    } else if (bound.inParts(key.length, size)) {
      bytes = size;
      items = 1;
      stop = Stop.PARTS;
      return true;
    } else if (message > itemRoom) {
      throw bound.tooLarge(key, size);
    }
    bytes += size;
    items++;
    if (items >= remainingItems) {
      stop = Stop.LIMIT;
    }
    return true;
  }

  /**
   * Whether the page's one item is a value returned in parts: the page holds its first part, the
   * next page the next one.
   */
  public boolean inParts() {
    return stop == Stop.PARTS;
  }

  /** The client's message bound this page is filled under. */
  public ResponseBound bound() {
    return bound;
  }

  /** Whether the page is complete: full, or at the item limit. */
  public boolean done() {
    return stop != Stop.NONE;
  }

  /**
   * Whether a next page may hold more items: the page stopped because it was full, or holds the
   * first part of a value.
   */
  public boolean more() {
    return stop == Stop.FULL || stop == Stop.PARTS;
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
