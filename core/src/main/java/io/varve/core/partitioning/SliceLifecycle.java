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
 */
public record SliceLifecycle(
    Optional<Instant> statusTime,
    Optional<String> compaction,
    Optional<Instant> compactionTime,
    Optional<SliceHistogram> histogram) {

  /** Nothing recorded. */
  public static final SliceLifecycle NONE =
      new SliceLifecycle(Optional.empty(), Optional.empty(), Optional.empty(), Optional.empty());

  public SliceLifecycle withStatusTime(Instant at) {
    return new SliceLifecycle(Optional.of(at), compaction, compactionTime, histogram);
  }

  public SliceLifecycle withCompaction(String strategy, Instant at) {
    return new SliceLifecycle(statusTime, Optional.of(strategy), Optional.of(at), histogram);
  }

  public SliceLifecycle withHistogram(SliceHistogram measured) {
    return new SliceLifecycle(statusTime, compaction, compactionTime, Optional.of(measured));
  }
}
