package io.varve.core.kv;

import java.util.List;

/** One mutation of a MutateItems request: a put or a delete of one record's items. */
public sealed interface KvMutation {

  /** The record mutated. */
  String id();

  /** Upserts items (validated as a PutItems' items). */
  record Put(String id, List<KvItem> items) implements KvMutation {}

  /** Deletes the items a predicate matches (validated as a DeleteItems' predicate). */
  record Delete(String id, ItemPredicate predicate) implements KvMutation {}
}
