package io.varve.reshaper.copy;

import java.io.Serializable;
import java.util.Arrays;

/** The encoded values of some key columns, compared by content. Immutable once built. */
public final class RowKey implements Serializable {
  private static final long serialVersionUID = 1L;
  private final byte[][] values;
  private final int hash;

  RowKey(byte[][] values) {
    this.values = values;
    this.hash = Arrays.deepHashCode(values);
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof RowKey k && hash == k.hash && Arrays.deepEquals(values, k.values);
  }

  @Override
  public int hashCode() {
    return hash;
  }
}
