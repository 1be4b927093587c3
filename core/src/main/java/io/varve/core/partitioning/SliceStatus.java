package io.varve.core.partitioning;

/** Life cycle of a time slice. */
public enum SliceStatus {
  /** Open for reads, and for writes within the accept limit. */
  ACTIVE,
  /**
   * Past the retention's close_after: neither read nor written; its table still exists, so raising
   * close_after opens it again.
   */
  CLOSED,
  /**
   * Past the retention's delete_after, its table being dropped: never read or opened again, even if
   * delete_after is raised meanwhile; the control plane finishes the drop, after a restart too.
   */
  DELETING,
  /** Its table has been dropped. */
  DELETED;

  /** Whether the slice's table exists for certain: ACTIVE or CLOSED. */
  public boolean hasTable() {
    return this == ACTIVE || this == CLOSED;
  }
}
