package io.varve.bench.engine;

import java.util.Map;

/**
 * Implemented by a binding that counts events beside the operations themselves (for example
 * throttled attempts that the client retried). The counters of the run's first binding instance go
 * into the result; bindings share them across instances.
 */
public interface CounterSource {
  /** Counter name to value, for the whole run so far. */
  Map<String, Long> counters();
}
