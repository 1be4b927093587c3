package io.varve.core.partitioning;

import java.time.Instant;
import java.util.Optional;

/**
 * What the control plane did to a slice after creating it: when its status last changed, the
 * compaction strategy its table has and since when. Slices recorded by an earlier version, before
 * these were kept, have none of them.
 *
 * @param statusTime when the status last changed; empty when never recorded
 * @param compaction the table's compaction strategy as the control plane set it (e.g. {@code
 *     TimeWindowCompactionStrategy}); empty when the table has the cluster's default
 * @param compactionTime when {@code compaction} was set; empty with it
 * @param histogram its partition sizes, measured once it received no more writes; empty before
 * @param pending the table a re-partitioning is copying its events into, with the new settings
 * @param previous the table it was read from before its last re-partitioning, kept until readers
 *     have moved on
 */
public record SliceLifecycle(
    Optional<Instant> statusTime,
    Optional<String> compaction,
    Optional<Instant> compactionTime,
    Optional<SliceHistogram> histogram,
    Optional<PendingTable> pending,
    Optional<PreviousTable> previous) {

  /**
   * A table being filled with a slice's events under new partition settings.
   *
   * @param since when it was created
   */
  public record PendingTable(
      String table, long secondsPerTimeBucket, int eventBuckets, Instant since) {}

  /** A slice's former table, dropped once {@code dropAfter} has passed. */
  public record PreviousTable(String table, Instant dropAfter) {}

  /** Nothing recorded. */
  public static final SliceLifecycle NONE =
      new SliceLifecycle(
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty(),
          Optional.empty());

  public SliceLifecycle withStatusTime(Instant at) {
    return new SliceLifecycle(
        Optional.of(at), compaction, compactionTime, histogram, pending, previous);
  }

  public SliceLifecycle withCompaction(String strategy, Instant at) {
    return new SliceLifecycle(
        statusTime, Optional.of(strategy), Optional.of(at), histogram, pending, previous);
  }

  public SliceLifecycle withHistogram(SliceHistogram measured) {
    return new SliceLifecycle(
        statusTime, compaction, compactionTime, Optional.of(measured), pending, previous);
  }

  public SliceLifecycle withPending(Optional<PendingTable> table) {
    return new SliceLifecycle(statusTime, compaction, compactionTime, histogram, table, previous);
  }

  /**
   * After a swap to a new table: its compaction and histogram are not known yet, and the old table
   * is kept until {@code previous.dropAfter()}.
   */
  public SliceLifecycle swapped(PreviousTable old) {
    return new SliceLifecycle(
        statusTime,
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.empty(),
        Optional.of(old));
  }

  public SliceLifecycle withoutPrevious() {
    return new SliceLifecycle(
        statusTime, compaction, compactionTime, histogram, pending, Optional.empty());
  }

  /** Every table this slice holds besides its own: the pending and the previous one. */
  public java.util.List<String> otherTables() {
    java.util.List<String> tables = new java.util.ArrayList<>();
    pending.ifPresent(p -> tables.add(p.table()));
    previous.ifPresent(p -> tables.add(p.table()));
    return tables;
  }
}
