package io.varve.core.partitioning;

/** Life cycle of a time slice. */
public enum SliceStatus {
  /** Open for reads, and for writes within the accept limit. */
  ACTIVE,
  /** Past the retention's close_after: neither read nor written; its table still exists. */
  CLOSED,
  /** Past the retention's delete_after: its table has been dropped. */
  DELETED
}
