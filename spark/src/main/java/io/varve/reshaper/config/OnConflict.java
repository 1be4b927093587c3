package io.varve.reshaper.config;

/**
 * Which row wins when several source rows land on the same target primary key ({@code
 * reshape.onConflict}). Ties are broken by comparing the rest of the row (see {@code
 * docs/reshaper.md}), so the result never depends on read or write order.
 */
public enum OnConflict {
  /** The row with the greatest value of {@code reshape.column}. */
  KEEP_MAX("keepMax"),
  /** The row with the smallest value of {@code reshape.column}. */
  KEEP_MIN("keepMin"),
  /** The row whose newest cell writetime is the newest. */
  KEEP_NEWEST_WRITETIME("keepNewestWritetime"),
  /** Stop the job, naming the key. */
  FAIL("fail");

  private final String yamlName;

  OnConflict(String yamlName) {
    this.yamlName = yamlName;
  }

  /** True for the rules that compare a column's values. */
  public boolean needsColumn() {
    return this == KEEP_MAX || this == KEEP_MIN;
  }

  @Override
  public String toString() {
    return yamlName;
  }
}
