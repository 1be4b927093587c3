package io.varve.core.index;

import io.varve.core.event.EventItem;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * The index store behind search and aggregate: one index per index slice of a namespace. A failure
 * of the store (unreachable, timed out, overloaded, refusing the request) completes a stage with a
 * {@link io.varve.core.error.StorageException}, classified by the implementation.
 */
public interface IndexStore {

  /**
   * Creates the index when it does not exist, with the namespace's field mapping and refresh
   * interval, and adds fields mapped since it was created. Idempotent.
   */
  CompletionStage<Void> prepare(String index, IndexSpec spec);

  /**
   * Indexes documents in bulk (a document with the same id is replaced). Completes with the outcome
   * per document; fails as a whole only when the request as a whole failed.
   */
  CompletionStage<BulkOutcome> bulk(List<IndexDocument> documents, IndexSpec spec);

  /** What a bulk request did: documents refused, with the store's reason. */
  record BulkOutcome(int indexed, List<String> failures, boolean retryable) {}

  /** One page of search hits, in the search order. */
  CompletionStage<List<Hit>> search(Search search);

  /**
   * A search: events in [fromMillis, toMillis) of {@code indices} (absent ones are skipped) that
   * match {@code query}, after {@code after} (when present), at most {@code size}.
   */
  record Search(
      IndexSpec spec,
      List<String> indices,
      long fromMillis,
      long toMillis,
      SearchQuery query,
      Optional<SearchCursor> after,
      int size) {}

  /** A matching event; {@code items} are set in {@link DocumentMode#FULL_EVENT}. */
  record Hit(
      String timeSeriesId, long eventTimeMillis, String eventId, Optional<List<EventItem>> items) {}

  /** Aggregates the matching events of a search (its {@code after} and {@code size} unused). */
  CompletionStage<Aggregates> aggregate(Search search, Aggregation aggregation);

  /**
   * What to aggregate: distinct values of {@code distinctField} (when present; paged after {@code
   * distinctAfter}, {@code distinctSize} at a time), the count, counts per {@code bucketWidth}.
   */
  record Aggregation(
      Optional<String> distinctField,
      Optional<Object> distinctAfter,
      int distinctSize,
      boolean count,
      Optional<Duration> bucketWidth) {}

  /** Aggregation results; distinct values are parsed values of the field's type. */
  record Aggregates(
      List<ValueCount> distinct, boolean moreDistinct, long count, List<BucketCount> buckets) {}

  record ValueCount(Object value, long count) {}

  record BucketCount(long startMillis, long count) {}

  /** Names of the existing indices that start with {@code prefix}. */
  CompletionStage<List<String>> indices(String prefix);

  /** Deletes indices (absent ones are ignored). */
  CompletionStage<Void> delete(List<String> indices);

  /**
   * Makes everything indexed so far in {@code indices} searchable now (tests and backfill); a name
   * may end in {@code *} to name every index it begins (absent ones are ignored).
   */
  CompletionStage<Void> refresh(List<String> indices);
}
