package io.varve.bench.engine;

import io.varve.bench.load.LoadSource;
import java.util.Map;
import java.util.TreeMap;

/**
 * A binding's counters ({@link CounterSource}) as a load source: each second's increase in the
 * timeline ({@code binding.<counter>}), their increase over the measured part in the result's
 * {@code counters}.
 */
final class BindingCounters implements LoadSource {

  static final String PREFIX = "binding.";

  private final CounterSource source;

  BindingCounters(CounterSource source) {
    this.source = source;
  }

  @Override
  public String name() {
    return "binding counters";
  }

  @Override
  public Map<String, Double> totals() {
    Map<String, Double> out = new TreeMap<>();
    source.counters().forEach((name, value) -> out.put(PREFIX + name, value.doubleValue()));
    return out;
  }
}
