package io.varve.bench.engine;

import java.util.Map;

/**
 * Implemented by a binding that counts events beside the operations themselves (for example
 * throttled attempts that the client retried). The counters of the run's first binding instance are
 * sampled every second: their increase over the measured part goes into the result's {@code
 * counters}, each second's into its timeline ({@code binding.<name>}). Bindings share them across
 * instances.
 */
public interface CounterSource {
  /** Counter name to value, for the whole run so far. */
  Map<String, Long> counters();
}
