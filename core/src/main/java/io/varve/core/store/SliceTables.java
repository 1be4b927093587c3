package io.varve.core.store;

import io.varve.core.partitioning.CompactionPolicy;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Schema operations on slice tables: run by the control plane, never on the write path. A failure
 * of the store completes a stage with a {@link io.varve.core.error.StorageException}.
 */
public interface SliceTables {

  CompletionStage<Void> createKeyspaceIfMissing(String keyspace);

  /** Creates a slice table if it does not exist (idempotent), with the cluster's compaction. */
  CompletionStage<Void> create(String keyspace, String table);

  /**
   * Creates a slice table if it does not exist (idempotent) with the compaction for a slice open to
   * writes during {@code writeLife} (from the first write it may take to the last: the slice's
   * width, the accept limit and how far ahead it is created).
   *
   * @return the strategy it was created with, as {@link #compaction} names it; empty for the
   *     cluster's default
   */
  CompletionStage<Optional<String>> create(
      String keyspace, String table, CompactionPolicy.Open open, Duration writeLife);

  /**
   * The strategy {@code closed} means on the cluster holding {@code keyspace} (AUTO resolved by its
   * backend and version), as {@link #compaction} names it; empty for UNCHANGED.
   */
  CompletionStage<Optional<String>> closedStrategy(String keyspace, CompactionPolicy.Closed closed);

  /**
   * Switches a slice table that receives no more writes to {@code closed}'s strategy (idempotent).
   * The nodes compact it again in the background, on their own compaction threads.
   */
  CompletionStage<Void> compactClosed(
      String keyspace, String table, CompactionPolicy.Closed closed);

  /** The compaction strategy a table has now, by the cluster's schema: the class's simple name. */
  CompletionStage<Optional<String>> compaction(String keyspace, String table);

  /** Whether a table exists, as the cluster's schema says now. */
  CompletionStage<Boolean> exists(String keyspace, String table);

  /**
   * Measures a slice table's partition sizes: the rows of every partition of a random share of its
   * token ranges, counted by the store, until {@code maxRows} rows are counted (the range being
   * counted finishes), and the mean size of a row from at most {@code sampleRows} rows read back.
   * Blocks: call it from a background thread.
   *
   * @throws io.varve.core.error.StorageException when the store fails
   */
  io.varve.core.partitioning.SliceHistogram measure(
      String keyspace, String table, long maxRows, int sampleRows);

  /** Whether a table holds at least one row (one row read). */
  CompletionStage<Boolean> hasRows(String keyspace, String table);

  /** Drops a slice table if it exists (idempotent). */
  CompletionStage<Void> drop(String keyspace, String table);
}
