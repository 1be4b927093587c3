package io.varve.core.partitioning;

import java.util.Locale;

/**
 * How a namespace's slice tables are compacted ({@code config.compaction} of its primary storage):
 * while a slice can still receive writes, and once it cannot (its end is older than the accept
 * limit). Each slice records the strategy its table has ({@link SliceLifecycle#compaction()}).
 *
 * @param open the strategy a slice table is created with
 * @param closed the strategy a slice table is switched to once it receives no more writes
 */
public record CompactionPolicy(Open open, Closed closed) {

  /** While the slice receives writes. */
  public enum Open {
    /**
     * Time windows of the write time: a flush joins only the sstables of its own window, so the
     * stream of writes costs little compaction, and a window stops being compacted once it is past.
     */
    TIME_WINDOW,
    /** What the cluster gives a table created without compaction options. */
    CLUSTER_DEFAULT
  }

  /** Once the slice receives no more writes: strategies that keep a partition in few sstables. */
  public enum Closed {
    /**
     * The backend's read-optimised strategy: UNIFIED on Cassandra 5.0 and later, INCREMENTAL on
     * ScyllaDB releases that have it, LEVELED otherwise.
     */
    AUTO,
    /** Cassandra 5.0's unified compaction, in its levelled mode. */
    UNIFIED,
    LEVELED,
    /** ScyllaDB's incremental compaction. */
    INCREMENTAL,
    SIZE_TIERED,
    /** No switch: the table keeps the strategy it was created with. */
    UNCHANGED
  }

  public static final CompactionPolicy DEFAULT =
      new CompactionPolicy(Open.TIME_WINDOW, Closed.AUTO);

  /** The name of a value as the configuration spells it. */
  public static String spelled(Enum<?> value) {
    return value.name();
  }

  /** {@code text} as a value of {@code type}, case-insensitive; null when it is none. */
  public static <E extends Enum<E>> E parse(Class<E> type, String text) {
    try {
      return Enum.valueOf(type, text.trim().toUpperCase(Locale.ROOT));
    } catch (IllegalArgumentException e) {
      return null;
    }
  }
}
