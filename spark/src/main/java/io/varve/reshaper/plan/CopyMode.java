package io.varve.reshaper.plan;

/** How rows travel from source to target, chosen from the two primary keys. */
public enum CopyMode {
  /** Every source key column is in the target key: no two rows can collide; rows stream. */
  DIRECT,
  /**
   * Rows can collide, but only rows of one source partition (every source partition-key column is
   * in the target key): conflicts are resolved while the partition is read, with no shuffle.
   */
  IN_PARTITION,
  /** Rows of different source partitions can collide: Spark groups rows by target key. */
  SHUFFLE
}
