package io.varve.reshaper.plan;

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
public record TokenRange(int index, long start, long end) implements WorkUnit {

  /**
   * The ring cut into {@code count} ranges of equal width, covering every token. The cut depends on
   * {@code count} only, so a rerun finds the same ranges whatever the topology.
   */
  public static List<TokenRange> split(int count) {
    return split(Long.MIN_VALUE, Long.MAX_VALUE, count);
  }

  /**
   * The range {@code (from, to]} cut into {@code count} ranges of equal width (fewer when it holds
   * fewer tokens), covering every token of it.
   */
  public static List<TokenRange> split(long from, long to, int count) {
    if (count < 1 || from >= to) {
      throw new IllegalArgumentException(
          "count: " + count + ", range (" + from + ", " + to + "] (expected: >= 1, non-empty)");
    }
    BigInteger min = BigInteger.valueOf(from);
    BigInteger width = BigInteger.valueOf(to).subtract(min);
    int parts = (int) Math.min(count, width.min(BigInteger.valueOf(count)).longValueExact());
    List<TokenRange> ranges = new ArrayList<>(parts);
    long start = from;
    for (int i = 0; i < parts; i++) {
      long end =
          i == parts - 1
              ? to
              : min.add(width.multiply(BigInteger.valueOf(i + 1)).divide(BigInteger.valueOf(parts)))
                  .longValueExact();
      ranges.add(new TokenRange(i, start, end));
      start = end;
    }
    return ranges;
  }
}
