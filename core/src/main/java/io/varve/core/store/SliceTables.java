package io.varve.core.store;

import java.util.concurrent.CompletionStage;

/**
 * Schema operations on slice tables: run by the control plane, never on the write path. A failure
 * of the store completes a stage with a {@link io.varve.core.error.StorageException}.
 */
public interface SliceTables {

  CompletionStage<Void> createKeyspaceIfMissing(String keyspace);

  /** Creates a slice table if it does not exist (idempotent). */
  CompletionStage<Void> create(String keyspace, String table);

  /** Whether a table exists, as the cluster's schema says now. */
  CompletionStage<Boolean> exists(String keyspace, String table);

  /** Drops a slice table if it exists (idempotent). */
  CompletionStage<Void> drop(String keyspace, String table);
}
