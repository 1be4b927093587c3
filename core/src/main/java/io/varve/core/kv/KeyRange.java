package io.varve.core.kv;

import java.util.Arrays;
import java.util.Optional;

/**
 * Keys between two optional bounds, compared as unsigned bytes (as Cassandra compares blobs).
 * {@code start} is the smaller bound whatever the clustering order.
 */
public record KeyRange(
    Optional<byte[]> start, boolean startInclusive, Optional<byte[]> end, boolean endInclusive) {

  public static final KeyRange ALL = new KeyRange(Optional.empty(), true, Optional.empty(), false);

  public static int compare(byte[] a, byte[] b) {
    return Arrays.compareUnsigned(a, b);
  }

  public boolean contains(byte[] key) {
    if (start.isPresent()) {
      int c = compare(key, start.get());
      if (c < 0 || (c == 0 && !startInclusive)) {
        return false;
      }
    }
    if (end.isPresent()) {
      int c = compare(key, end.get());
      return c < 0 || (c == 0 && endInclusive);
    }
    return true;
  }

  /** Whether no key can match (an empty range of a well-formed request). */
  public boolean empty() {
    if (start.isEmpty() || end.isEmpty()) {
      return false;
    }
    int c = compare(start.get(), end.get());
    return c > 0 || (c == 0 && !(startInclusive && endInclusive));
  }

  /**
   * The rest of this range after {@code last} was returned: in ASC order the keys above it, in DESC
   * order the keys below it.
   */
  public KeyRange after(byte[] last, ClusteringOrder order) {
    return order == ClusteringOrder.ASC
        ? new KeyRange(Optional.of(last), false, end, endInclusive)
        : new KeyRange(start, startInclusive, Optional.of(last), false);
  }
}
