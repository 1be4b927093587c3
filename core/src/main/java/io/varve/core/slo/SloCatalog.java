package io.varve.core.slo;

import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * The endpoints of a service that carry objectives, each in a group ({@code read} or {@code write},
 * the reference text's keys) whose default it takes when a namespace sets neither the endpoint nor
 * its group, unless the catalog gives the endpoint a default of its own. Each service has one
 * catalog (KeyValue: {@code io.varve.core.kv.KvSlos}, TimeSeries: {@code
 * io.varve.core.namespace.TimeSeriesSlos}); the same {@link Slos} model serves every catalog.
 *
 * @param endpoints endpoint name (the RPC name) to its group, in a stable order
 * @param defaults group to its default objectives
 * @param endpointDefaults endpoint to a default of its own, for an endpoint whose calls take
 *     another order of time than its group's (an aggregation beside point reads)
 */
public record SloCatalog(
    Map<String, String> endpoints,
    Map<String, LatencySlo> defaults,
    Map<String, LatencySlo> endpointDefaults) {

  public SloCatalog {
    endpoints = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(endpoints));
    defaults = Map.copyOf(defaults);
    endpointDefaults = Map.copyOf(endpointDefaults);
    for (String group : endpoints.values()) {
      if (!defaults.containsKey(group)) {
        throw new IllegalArgumentException("no default for group " + group);
      }
    }
    if (!endpoints.keySet().containsAll(endpointDefaults.keySet())) {
      throw new IllegalArgumentException("a default for an endpoint not in the catalog");
    }
  }

  /** A catalog whose endpoints all take their group's default. */
  public SloCatalog(Map<String, String> endpoints, Map<String, LatencySlo> defaults) {
    this(endpoints, defaults, Map.of());
  }

  /** The objectives of {@code endpoint} when a namespace sets neither it nor its group. */
  LatencySlo defaultOf(String endpoint) {
    LatencySlo own = endpointDefaults.get(endpoint);
    return own != null ? own : defaults.get(endpoints.get(endpoint));
  }

  /** The endpoint or group a configuration key names, case aside; empty when it names neither. */
  Optional<String> canonical(String key) {
    for (String name : endpoints.keySet()) {
      if (name.equalsIgnoreCase(key)) {
        return Optional.of(name);
      }
    }
    String lower = key.toLowerCase(Locale.ROOT);
    return defaults.containsKey(lower) ? Optional.of(lower) : Optional.empty();
  }

  /** Whether {@code name} (canonical) is a group rather than an endpoint. */
  boolean isGroup(String name) {
    return defaults.containsKey(name) && !endpoints.containsKey(name);
  }

  /** What a configuration key may be, for error messages. */
  String expected() {
    return "an endpoint ("
        + String.join(", ", endpoints.keySet())
        + ") or a group ("
        + String.join(", ", new java.util.TreeSet<>(defaults.keySet()))
        + ")";
  }
}
