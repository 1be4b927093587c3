package io.varve.core.index;

import io.varve.core.namespace.Retention;
import java.time.Duration;
import java.util.Map;

/**
 * The effective settings of a namespace's index storage (its INDEX_STORAGE entry), validated and
 * with defaults filled in.
 *
 * @param namespace the namespace
 * @param dataset base name of its indices
 * @param secondsPerSlice width of one index (an index slice), in seconds
 * @param fields indexed item keys (UTF-8 text) and their types
 * @param refreshInterval how soon indexed documents become searchable
 * @param mode what a document holds
 * @param acceptLimit events older than this (by event time) are not indexed
 * @param retention when index slices close (left out of searches) and are deleted
 */
public record IndexSpec(
    String namespace,
    String dataset,
    long secondsPerSlice,
    Map<String, FieldType> fields,
    Duration refreshInterval,
    DocumentMode mode,
    Duration acceptLimit,
    Retention retention) {

  public static final long DEFAULT_SECONDS_PER_SLICE = 86_400;
  public static final Duration DEFAULT_REFRESH_INTERVAL = Duration.ofSeconds(1);

  public IndexSpec {
    fields = Map.copyOf(fields);
  }
}
