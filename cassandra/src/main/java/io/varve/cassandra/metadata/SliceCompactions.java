package io.varve.cassandra.metadata;

import io.varve.core.partitioning.CompactionPolicy;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The compaction options of slice tables, by backend. While a slice receives writes:
 * TimeWindowCompactionStrategy, whose windows divide the slice's write life (its width, the accept
 * limit and how far ahead it is created) in about {@value #WINDOWS_PER_WRITE_LIFE}, so that
 * compaction joins the recent flushes only. Once it receives no more writes, a strategy that keeps
 * each partition in few sstables, so that a read opens few files:
 *
 * <ul>
 *   <li>Cassandra 5.0 and later: UnifiedCompactionStrategy with {@code scaling_parameters: L10}
 *       (its levelled mode, fan-out 10, like LCS);
 *   <li>earlier Cassandra: LeveledCompactionStrategy;
 *   <li>ScyllaDB releases numbered by year (2022.1 and later, which have it):
 *       IncrementalCompactionStrategy, levelled by runs without LCS's write amplification; earlier
 *       open-source releases: LeveledCompactionStrategy.
 * </ul>
 *
 * ScyllaDB's choice is written from its documentation and untested here: no ScyllaDB server runs on
 * the machines the tests run on.
 */
final class SliceCompactions {

  static final String TIME_WINDOW = "TimeWindowCompactionStrategy";
  static final int WINDOWS_PER_WRITE_LIFE = 24;

  private SliceCompactions() {}

  /** The cluster a server talks to. */
  record Backend(boolean scylla, int major) {
    static Backend cassandra(String release) {
      return new Backend(false, major(release));
    }

    static Backend scylla(String version) {
      return new Backend(true, major(version));
    }

    private static int major(String version) {
      String digits = version == null ? "" : version.replaceFirst("^(\\d+).*$", "$1");
      try {
        return Integer.parseInt(digits);
      } catch (NumberFormatException e) {
        return 0;
      }
    }
  }

  /** TWCS options for a slice written to during {@code writeLife}. */
  static Map<String, Object> timeWindow(Duration writeLife) {
    long minutes = Math.max(1, ceilDiv(writeLife.toMinutes(), WINDOWS_PER_WRITE_LIFE));
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("class", TIME_WINDOW);
    if (minutes < 60) {
      options.put("compaction_window_unit", "MINUTES");
      options.put("compaction_window_size", minutes);
    } else if (minutes < 24 * 60) {
      options.put("compaction_window_unit", "HOURS");
      options.put("compaction_window_size", ceilDiv(minutes, 60));
    } else {
      options.put("compaction_window_unit", "DAYS");
      options.put("compaction_window_size", ceilDiv(minutes, 24 * 60));
    }
    return options;
  }

  /** The class {@code closed} means on {@code backend}. */
  static String closedClass(CompactionPolicy.Closed closed, Backend backend) {
    return switch (closed) {
      case UNIFIED -> "UnifiedCompactionStrategy";
      case LEVELED -> "LeveledCompactionStrategy";
      case INCREMENTAL -> "IncrementalCompactionStrategy";
      case SIZE_TIERED -> "SizeTieredCompactionStrategy";
      case AUTO ->
          backend.scylla()
              ? (backend.major() >= 2000
                  ? "IncrementalCompactionStrategy"
                  : "LeveledCompactionStrategy")
              : (backend.major() >= 5 ? "UnifiedCompactionStrategy" : "LeveledCompactionStrategy");
      case UNCHANGED -> throw new IllegalArgumentException("UNCHANGED has no strategy");
    };
  }

  /** The options of {@code closed}'s strategy on {@code backend}. */
  static Map<String, Object> closed(CompactionPolicy.Closed closed, Backend backend) {
    String cls = closedClass(closed, backend);
    Map<String, Object> options = new LinkedHashMap<>();
    options.put("class", cls);
    if (cls.equals("UnifiedCompactionStrategy")) {
      options.put("scaling_parameters", "L10");
    }
    return options;
  }

  /** {@code org.apache.cassandra.db.compaction.X} as {@code X}. */
  static String simpleName(String cls) {
    return cls.substring(cls.lastIndexOf('.') + 1);
  }

  private static long ceilDiv(long a, long b) {
    return (a + b - 1) / b;
  }
}
