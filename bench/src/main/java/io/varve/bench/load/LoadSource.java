package io.varve.bench.load;

import java.util.Map;

/**
 * Something measured beside a run's operations and sampled once a second: the loader's CPU, the
 * binding's counters, the servers' load. A source that fails skips that sample with a warning, and
 * is dropped from the run after a few failures in a row; the run goes on.
 */
public interface LoadSource extends AutoCloseable {

  /** Shown in warnings (e.g. {@code cql nodes}). */
  String name();

  /**
   * Cumulative values now (CPU time, completed tasks, consumed units): a second's figure is the
   * difference from the last sample, the run's is the difference over its measured part.
   */
  Map<String, Double> totals() throws Exception;

  /**
   * Values of this instant (pending tasks): a second shows its sample, the run its mean and max.
   */
  default Map<String, Double> levels() throws Exception {
    return Map.of();
  }

  @Override
  default void close() {}
}
