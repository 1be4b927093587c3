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

  /** The key in CQL literal form, its columns the first of {@code plan}'s target columns. */
  public String describe(io.varve.reshaper.plan.MigrationPlan plan) {
    StringBuilder out = new StringBuilder("{");
    for (int i = 0; i < values.length; i++) {
      var column = plan.target().columns().get(i);
      out.append(i == 0 ? "" : ", ")
          .append(column.name())
          .append('=')
          .append(TargetRow.format(column, values[i]));
    }
    return out.append('}').toString();
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
