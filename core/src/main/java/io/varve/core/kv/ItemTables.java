package io.varve.core.kv;

import java.util.concurrent.CompletionStage;

/** Schema operations on KeyValue tables: run by the control plane, never on the write path. */
public interface ItemTables {

  /** Creates the namespace's table if it does not exist (idempotent); its keyspace must exist. */
  CompletionStage<Void> create(KvNamespace namespace);

  /**
   * Drops the namespace's item table and the chunk table beside it, if they exist (idempotent): the
   * namespace is being deleted.
   */
  CompletionStage<Void> drop(KvNamespace namespace);
}
