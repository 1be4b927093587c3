package io.varve.core.kv;

import java.util.List;

/** Which items of a record a GetItems or DeleteItems addresses. */
public sealed interface ItemPredicate {

  /** Every item of the record. */
  record All() implements ItemPredicate {}

  /** The listed keys: distinct, sorted in the namespace's clustering order. */
  record Keys(List<byte[]> keys) implements ItemPredicate {}

  /** The keys of a range. */
  record Range(KeyRange range) implements ItemPredicate {}
}
