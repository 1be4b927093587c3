package io.varve.core.kv;

import java.util.List;

/**
 * A page of a scan of one segment of a namespace's token ring.
 *
 * @param items the items returned
 * @param more whether more items may follow in the segment (then {@code last} is set)
 * @param last the position to resume after, null when nothing was consumed
 * @param rowsFetched rows the store sent, returned or not
 * @param bytes bytes of the page's ids, keys and values
 * @param valueLeftOut whether the page's one item has its value left out: it fits no message of the
 *     client's bound, and the client takes values in parts (by GetItems)
 */
public record ScanPage(
    List<ScannedItem> items,
    boolean more,
    ScanPosition last,
    long rowsFetched,
    long bytes,
    boolean valueLeftOut) {

  /** A page of whole values. */
  public ScanPage(
      List<ScannedItem> items, boolean more, ScanPosition last, long rowsFetched, long bytes) {
    this(items, more, last, rowsFetched, bytes, false);
  }
}
