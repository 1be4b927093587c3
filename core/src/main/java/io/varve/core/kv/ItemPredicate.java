package io.varve.core.kv;

import java.util.List;

/** Which items of a record a GetItems or DeleteItems addresses. */
public sealed interface ItemPredicate {

  /**
   * The part of this predicate after {@code last} in clustering order: what a read continues with
   * once {@code last} was returned (or skipped).
   */
  default ItemPredicate after(byte[] last, ClusteringOrder order) {
    if (this instanceof Keys k) {
      return new Keys(
          k.keys().stream()
              .filter(
                  key -> {
                    int c = KeyRange.compare(key, last);
                    return order == ClusteringOrder.ASC ? c > 0 : c < 0;
                  })
              .toList());
    }
    KeyRange range = this instanceof Range r ? r.range() : KeyRange.ALL;
    return new Range(range.after(last, order));
  }

  /** Every item of the record. */
  record All() implements ItemPredicate {}

  /** The listed keys: distinct, sorted in the namespace's clustering order. */
  record Keys(List<byte[]> keys) implements ItemPredicate {}

  /** The keys of a range. */
  record Range(KeyRange range) implements ItemPredicate {}
}
