package io.varve.packing;

/**
 * The bounds of one packed batch. Cassandra warns above 10 partitions in an unlogged batch ({@code
 * unlogged_batch_across_partitions_warn_threshold}) and above 5 KiB of values ({@code
 * batch_size_warn_threshold}) by default; callers choose bounds under those.
 *
 * @param maxItems items (rows, or the per-partition parts of a request) in a batch, at least 1
 * @param maxPartitions partitions in a batch, at least 1; 1 = a batch never spans partitions
 * @param maxBytes bytes of the items in a batch, at least 1; an item larger than this is never
 *     split and goes in a batch of its own
 */
public record PackingLimits(int maxItems, int maxPartitions, long maxBytes) {

  public PackingLimits {
    if (maxItems < 1 || maxPartitions < 1 || maxBytes < 1) {
      throw new IllegalArgumentException(
          "batch bounds must be at least 1: maxItems "
              + maxItems
              + ", maxPartitions "
              + maxPartitions
              + ", maxBytes "
              + maxBytes);
    }
  }
}
