package io.varve.reshaper.plan;

import java.io.Serializable;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A slice {@code (start, end]} of the Murmur3 token ring, the unit of work, progress and resume.
 *
 * @param index its position among the job's ranges, 0-based
 * @param start exclusive lower bound
 * @param end inclusive upper bound
 */
public record TokenRange(int index, long start, long end) implements Serializable {

  /**
   * The ring cut into {@code count} ranges of equal width, covering every token. The cut depends on
   * {@code count} only, so a rerun finds the same ranges whatever the topology.
   */
  public static List<TokenRange> split(int count) {
    if (count < 1) {
      throw new IllegalArgumentException("count: " + count + " (expected: >= 1)");
    }
    BigInteger min = BigInteger.valueOf(Long.MIN_VALUE);
    BigInteger width = BigInteger.valueOf(Long.MAX_VALUE).subtract(min);
    List<TokenRange> ranges = new ArrayList<>(count);
    long start = Long.MIN_VALUE;
    for (int i = 0; i < count; i++) {
      long end =
          i == count - 1
              ? Long.MAX_VALUE
              : min.add(width.multiply(BigInteger.valueOf(i + 1)).divide(BigInteger.valueOf(count)))
                  .longValueExact();
      ranges.add(new TokenRange(i, start, end));
      start = end;
    }
    return ranges;
  }
}
