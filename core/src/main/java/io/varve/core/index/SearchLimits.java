package io.varve.core.index;

import java.time.Duration;

/**
 * Limits of search and aggregate requests.
 *
 * @param maxInterval widest time interval of one request
 * @param defaultPageSize events per search page when not asked
 * @param maxPageSize most events per search page, and most distinct values per aggregate page
 * @param maxDepth deepest nesting of boolean queries
 * @param maxClauses most queries in one boolean query
 * @param maxTimeBuckets most buckets of a countByTime aggregation
 */
public record SearchLimits(
    Duration maxInterval,
    int defaultPageSize,
    int maxPageSize,
    int maxDepth,
    int maxClauses,
    int maxTimeBuckets) {

  public static final SearchLimits DEFAULT =
      new SearchLimits(Duration.ofDays(31), 100, 1000, 8, 100, 10_000);
}
