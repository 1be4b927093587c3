package io.varve.core.kv;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Adaptive CQL fetch sizes: how many rows to ask Cassandra for so that one fetch about fills a page
 * of bytes. The item size comes from the page token (what the request's earlier pages saw) or, for
 * a first page, from a running estimate per namespace, updated by every page read. Thread-safe.
 */
public final class FetchSizes {

  /**
   * Fewest rows fetched at once: even a page of one large item needs to know whether more follow.
   */
  public static final int MIN = 2;

  /** Most rows fetched at once, whatever the estimate says: a bound on a wrong estimate's cost. */
  public static final int MAX = 5000;

  /** The item size assumed before anything was read from a namespace. */
  public static final int INITIAL_ITEM_BYTES = 1024;

  /**
   * Sizes vary enough to plan a page by its rows' sizes when the largest item seen is this many
   * times the average: then a fetch sized by the average can hold items that overflow the page long
   * before its last row, and every row after them is read for nothing.
   */
  public static final int VARIED = 4;

  private final ConcurrentMap<String, Double> averages = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Double> largest = new ConcurrentHashMap<>();

  /** The rows to fetch for a page of {@code pageSizeBytes} of items of about {@code itemBytes}. */
  public static int of(long pageSizeBytes, long itemBytes, long remainingItems) {
    long rows =
        pageSizeBytes / Math.max(1, itemBytes) + 1; // one more: whether the page is the last
    if (remainingItems < Long.MAX_VALUE) { // MAX_VALUE: no item limit (and + 1 would overflow)
      rows = Math.min(rows, remainingItems + 1);
    }
    return (int) Math.max(MIN, Math.min(MAX, rows));
  }

  /**
   * The rows of a page's first fetch with values: {@code wantedRows} when item sizes are alike;
   * when they vary ({@code largestItemBytes} at least {@link #VARIED} times {@code itemBytes}), the
   * rows that fit the page were they all of the largest size, so that the rest of the page is
   * planned by the sizes of its rows rather than fetched blind.
   */
  public static int firstFetch(
      long pageSizeBytes, long itemBytes, long largestItemBytes, int wantedRows) {
    if (largestItemBytes < (long) VARIED * Math.max(1, itemBytes)) {
      return wantedRows;
    }
    return (int) Math.max(MIN, Math.min(wantedRows, pageSizeBytes / largestItemBytes + 1));
  }

  /** The namespace's running estimate of the largest item of a page, in bytes; 0 when unknown. */
  public long largestEstimate(String namespace) {
    return Math.round(largest.getOrDefault(namespace, 0.0));
  }

  /** The namespace's running item-size estimate, in bytes. */
  public long estimate(String namespace) {
    return Math.round(averages.getOrDefault(namespace, (double) INITIAL_ITEM_BYTES));
  }

  /**
   * Folds a page's observed average into the namespace's estimate (an exponential moving average).
   */
  public void observe(String namespace, long items, long bytes) {
    observe(namespace, items, bytes, 0);
  }

  /** As above, with the largest item of the page ({@code 0}: not measured). */
  public void observe(String namespace, long items, long bytes, long largestItemBytes) {
    if (items <= 0) {
      return;
    }
    double observed = (double) bytes / items;
    averages.merge(namespace, observed, (old, now) -> old * 0.8 + now * 0.2);
    if (largestItemBytes > 0) {
      largest.merge(namespace, (double) largestItemBytes, (old, now) -> old * 0.8 + now * 0.2);
    }
  }
}
