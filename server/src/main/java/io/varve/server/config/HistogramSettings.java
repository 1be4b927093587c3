package io.varve.server.config;

import io.varve.core.partitioning.PartitionAdvisor;
import java.time.Duration;

/**
 * Partition histograms of slices that receive no more writes, and the target their recommendation
 * aims at ({@code timeseries.histogram}).
 *
 * @param enabled whether servers measure slices at all
 * @param interval least time between two measurements by one server
 * @param maxRows rows counted per slice at most (the token range being counted finishes)
 * @param sampleRows rows read back per slice for the mean row size
 * @param target the partition size recommendations keep partitions within
 */
public record HistogramSettings(
    boolean enabled,
    Duration interval,
    long maxRows,
    int sampleRows,
    PartitionAdvisor.Target target) {

  public static final Duration DEFAULT_INTERVAL = Duration.ofMinutes(5);
  public static final long DEFAULT_MAX_ROWS = 10_000_000;
  public static final int DEFAULT_SAMPLE_ROWS = 1024;

  /**
   * Ten mebibytes and a hundred thousand rows: partitions of this size are read, repaired and
   * compacted without trouble on either backend (ScyllaDB warns from 100,000 rows, Cassandra's
   * guidance is to stay well under 100 MB).
   */
  public static final PartitionAdvisor.Target DEFAULT_TARGET =
      new PartitionAdvisor.Target(10L << 20, 100_000);
}
