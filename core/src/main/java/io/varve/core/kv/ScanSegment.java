package io.varve.core.kv;

import io.varve.core.error.InvalidFieldException;
import java.math.BigInteger;

/**
 * One of {@code total} equal shares of the Murmur3 token ring, {@code [first, last]} inclusive: the
 * records a ScanItems segment reads. Segment {@code i} starts at {@code MIN + floor(i * 2^64 /
 * total)} and ends where segment {@code i + 1} starts; the last ends at {@code Long.MAX_VALUE}, so
 * the segments of one {@code total} cover the ring exactly once.
 *
 * @param segment the share, 0 to {@code total - 1}
 * @param total the shares the ring is cut into
 * @param first the first token of the share
 * @param last the last token of the share
 */
public record ScanSegment(int segment, int total, long first, long last) {

  /**
   * Most segments a ring is cut into. Segments buy parallelism, and a parallel scan runs one caller
   * per segment: a few thousand workers are more than any server's admitted reads serve at once
   * (and more than the vnode ranges of all but the largest clusters), while every segment costs at
   * least one range query even when empty. A careless loop over a larger count would cost that many
   * queries and gain nothing.
   */
  public static final int MAX_TOTAL = 4096;

  private static final BigInteger RING = BigInteger.ONE.shiftLeft(64);

  /**
   * The segment a request asks for; absent fields default to segment 0 of 1 (the whole ring).
   *
   * @throws InvalidFieldException naming {@code total_segments} or {@code segment}
   */
  public static ScanSegment of(boolean hasSegment, int segment, boolean hasTotal, int total) {
    int n = hasTotal ? total : 1;
    if (n < 1 || n > MAX_TOTAL) {
      throw new InvalidFieldException("total_segments", n, "1.." + MAX_TOTAL + "; absent: 1");
    }
    int i = hasSegment ? segment : 0;
    if (i < 0 || i >= n) {
      throw new InvalidFieldException(
          "segment", i, "0.." + (n - 1) + " (below total_segments " + n + ")");
    }
    long first = start(i, n);
    long last = i == n - 1 ? Long.MAX_VALUE : start(i + 1, n) - 1;
    return new ScanSegment(i, n, first, last);
  }

  /**
   * {@code MIN + floor(i * 2^64 / n)}: the offset is below 2^64, so long arithmetic wraps exactly.
   */
  private static long start(int i, int n) {
    return Long.MIN_VALUE
        + RING.multiply(BigInteger.valueOf(i)).divide(BigInteger.valueOf(n)).longValue();
  }
}
