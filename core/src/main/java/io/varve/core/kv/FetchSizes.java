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

  private final ConcurrentMap<String, Double> averages = new ConcurrentHashMap<>();

  /** The rows to fetch for a page of {@code pageSizeBytes} of items of about {@code itemBytes}. */
  public static int of(long pageSizeBytes, long itemBytes, long remainingItems) {
    long rows =
        pageSizeBytes / Math.max(1, itemBytes) + 1; // one more: whether the page is the last
    if (remainingItems < Long.MAX_VALUE) { // MAX_VALUE: no item limit (and + 1 would overflow)
      rows = Math.min(rows, remainingItems + 1);
    }
    return (int) Math.max(MIN, Math.min(MAX, rows));
  }

  /** The namespace's running item-size estimate, in bytes. */
  public long estimate(String namespace) {
    return Math.round(averages.getOrDefault(namespace, (double) INITIAL_ITEM_BYTES));
  }

  /**
   * Folds a page's observed average into the namespace's estimate (an exponential moving average).
   */
  public void observe(String namespace, long items, long bytes) {
    if (items <= 0) {
      return;
    }
    double observed = (double) bytes / items;
    averages.merge(namespace, observed, (old, now) -> old * 0.8 + now * 0.2);
  }
}
