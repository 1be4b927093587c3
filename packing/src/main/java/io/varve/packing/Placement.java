package io.varve.packing;

import java.util.function.BiPredicate;
import java.util.function.Function;
import java.util.function.ToLongFunction;

/**
 * What {@link ReplicaPacker} needs to know of an item, answered by the caller from its own driver
 * and schema: the packer never talks to a cluster, so each driver keeps its token map to itself.
 *
 * @param <T> the caller's item: a row, or one partition's share of a request
 */
public interface Placement<T> {

  /** The item's size as Cassandra counts it in a batch (its values), about. */
  long bytes(T item);

  /**
   * Whether {@code next} belongs to the partition of {@code previous}, the item added just before
   * it.
   */
  boolean samePartition(T previous, T next);

  /**
   * A value equal for two items exactly when their partitions may share a batch: the replicas of
   * the partition's token, with whatever else must match (the table, for a batch of one prepared
   * statement). {@code null} when unknown (the driver has no token map, the partition key is
   * incomplete): the item's partition then shares its batch with no other. Asked only when a
   * partition could join a batch of another, so an expensive lookup costs nothing when {@link
   * PackingLimits#maxPartitions} is 1.
   */
  Object replicas(T item);

  /** A placement from its three answers. */
  static <T> Placement<T> of(
      ToLongFunction<T> bytes, BiPredicate<T, T> samePartition, Function<T, Object> replicas) {
    return new Placement<>() {
      @Override
      public long bytes(T item) {
        return bytes.applyAsLong(item);
      }

      @Override
      public boolean samePartition(T previous, T next) {
        return samePartition.test(previous, next);
      }

      @Override
      public Object replicas(T item) {
        return replicas.apply(item);
      }
    };
  }

  /** Items that all belong to one partition, as a partition's events cut into batches. */
  static <T> Placement<T> onePartition(ToLongFunction<T> bytes) {
    return of(bytes, (previous, next) -> true, item -> null);
  }
}
