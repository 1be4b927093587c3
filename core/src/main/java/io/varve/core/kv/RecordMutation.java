package io.varve.core.kv;

import java.util.List;

/**
 * The mutations of one record in a MutateItems request, written as one single-partition batch.
 * Validated not to overlap: no key is put twice or both put and deleted.
 *
 * @param id the record
 * @param puts the items put, from every put mutation of the record
 * @param deletes the predicates deleted, from every delete mutation of the record
 */
public record RecordMutation(String id, List<KvItem> puts, List<ItemPredicate> deletes) {}
