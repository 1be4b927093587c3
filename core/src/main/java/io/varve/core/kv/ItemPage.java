package io.varve.core.kv;

import java.util.List;

/**
 * A page of one record's items, as the item store read it.
 *
 * @param items the items returned
 * @param more whether more items may follow
 * @param rowsFetched rows the store sent in the shape returned (with values when values were asked
 *     for), taken or not: the numerator of read amplification
 * @param rowsPlanned rows of keys and sizes the store sent to plan the rows to fetch (0 when not
 *     needed)
 * @param bytes bytes of the page's keys and values
 * @param largestFetchBytes bytes of the largest fetch made (every column of its rows)
 * @param parts when the page's one item is the first part of a value returned in parts: the value's
 *     parts, pinned to its version; null otherwise
 */
public record ItemPage(
    List<KvItem> items,
    boolean more,
    long rowsFetched,
    long rowsPlanned,
    long bytes,
    long largestFetchBytes,
    ValueParts parts) {

  /** A page of whole values. */
  public ItemPage(
      List<KvItem> items,
      boolean more,
      long rowsFetched,
      long rowsPlanned,
      long bytes,
      long largestFetchBytes) {
    this(items, more, rowsFetched, rowsPlanned, bytes, largestFetchBytes, null);
  }
}
