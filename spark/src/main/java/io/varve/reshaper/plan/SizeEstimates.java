package io.varve.reshaper.plan;

import java.math.BigInteger;
import java.util.List;

/**
 * A table's size from a node's {@code system.size_estimates} rows (its primary token ranges, each
 * with a mean partition size and a partition count), and the split count that cuts the ring into
 * ranges of about {@code source.splitSizeInMB} of it: what the connector's {@code
 * spark.cassandra.input.split.size_in_mb} asks for.
 */
public final class SizeEstimates {
  private static final BigInteger RING = BigInteger.ONE.shiftLeft(64);

  /** One row of {@code system.size_estimates}: a token range {@code (start, end]}, and its data. */
  public record Range(long start, long end, long meanPartitionSize, long partitionsCount) {
    /** How many tokens the range holds; a range that wraps around the ring holds the ends. */
    BigInteger width() {
      BigInteger w = BigInteger.valueOf(end).subtract(BigInteger.valueOf(start));
      return w.signum() > 0 ? w : w.add(RING);
    }
  }

  private SizeEstimates() {}

  /**
   * The table's bytes on the whole ring: the bytes of the ranges the rows cover, scaled up to the
   * ring by the share of its tokens they cover; 0 when they cover none or hold nothing.
   */
  public static long tableBytes(List<Range> ranges) {
    BigInteger covered = BigInteger.ZERO;
    double bytes = 0;
    for (Range r : ranges) {
      covered = covered.add(r.width());
      bytes += (double) Math.max(0, r.meanPartitionSize()) * Math.max(0, r.partitionsCount());
    }
    if (covered.signum() == 0 || bytes == 0) {
      return 0;
    }
    double share = Math.min(1.0, covered.doubleValue() / RING.doubleValue());
    return (long) Math.min(Long.MAX_VALUE, bytes / share);
  }

  /** The split count for ranges of about {@code splitSizeMb} MiB: at least 1, at most 1,000,000. */
  public static int splits(long tableBytes, int splitSizeMb) {
    long size = (long) splitSizeMb << 20;
    long count = tableBytes / size + (tableBytes % size == 0 ? 0 : 1);
    return (int) Math.max(1, Math.min(1_000_000, count));
  }
}
