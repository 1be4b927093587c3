package io.varve.core.slo;

import io.varve.core.error.InvalidFieldException;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The effective objectives of a namespace: one {@link LatencySlo} for every endpoint of its
 * service's {@link SloCatalog}. An endpoint takes, in order, what the namespace sets for it, what
 * it sets for the endpoint's group, or its default in the catalog (its own, else its group's).
 * Immutable.
 *
 * @param byEndpoint every endpoint of the catalog to its objectives, in the catalog's order
 */
public record Slos(Map<String, LatencySlo> byEndpoint) {

  /**
   * What a configuration gives for one key: whether it has a {@code latency} mapping, and the
   * durations it holds.
   */
  public record Given(boolean hasLatency, Optional<Duration> target, Optional<Duration> max) {}

  public Slos {
    byEndpoint = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(byEndpoint));
  }

  /** Every endpoint at its default in the catalog. */
  public static Slos defaults(SloCatalog catalog) {
    return of(catalog, Map.of(), "slos");
  }

  /**
   * Validates a configuration's {@code slos} (keys: endpoints or groups, any case) against {@code
   * catalog}; errors name {@code field.<key>...}: an unknown key, a key given twice in different
   * cases, a missing {@code latency}, {@code target} or {@code max}, a duration outside {@link
   * LatencySlo#MIN}..{@link LatencySlo#CEILING}, or a target above its max.
   */
  public static Slos of(SloCatalog catalog, Map<String, Given> configured, String field) {
    Map<String, LatencySlo> set = new LinkedHashMap<>();
    configured.entrySet().stream()
        .sorted(Map.Entry.comparingByKey())
        .forEach(
            e -> {
              String path = field + "." + e.getKey();
              String name =
                  catalog
                      .canonical(e.getKey())
                      .orElseThrow(
                          () -> new InvalidFieldException(path, e.getKey(), catalog.expected()));
              if (!e.getValue().hasLatency()) {
                throw InvalidFieldException.of(
                    path + ".latency", "missing (expected: {\"target\": ..., \"max\": ...})");
              }
              LatencySlo slo =
                  LatencySlo.of(path + ".latency", e.getValue().target(), e.getValue().max());
              if (set.put(name, slo) != null) {
                throw new InvalidFieldException(
                    path, e.getKey(), "each endpoint or group once (" + name + " is given twice)");
              }
            });
    Map<String, LatencySlo> effective = new LinkedHashMap<>();
    catalog
        .endpoints()
        .forEach(
            (endpoint, group) ->
                effective.put(
                    endpoint,
                    set.getOrDefault(
                        endpoint, set.getOrDefault(group, catalog.defaultOf(endpoint)))));
    return new Slos(effective);
  }

  /** The objectives of {@code endpoint}, which must be in the catalog. */
  public LatencySlo latency(String endpoint) {
    LatencySlo slo = byEndpoint.get(endpoint);
    if (slo == null) {
      throw new IllegalArgumentException("no objectives for endpoint " + endpoint);
    }
    return slo;
  }
}
