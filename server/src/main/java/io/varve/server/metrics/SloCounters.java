package io.varve.server.metrics;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.slo.LatencySlo;
import io.varve.core.slo.Slos;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;

/**
 * Each namespace's requests measured against its own latency objectives: {@code
 * varve_slo_requests_total{namespace, endpoint, latency}}, {@code latency} one of {@code
 * within_target} (answered within the endpoint's {@code target}), {@code over_target} (within its
 * {@code max}) and {@code over_max}, from the request's arrival to its answer, whatever the answer.
 * The objectives are the namespace's as this server serves them now (UpdateNamespace applies at
 * once). Only endpoints with objectives count (the data-plane RPCs of each service), and only
 * namespaces this server serves: a request naming an unknown namespace makes no series. A
 * namespace's three series appear with its first request and go when it is deleted.
 */
public final class SloCounters {

  /** The counter's name (Prometheus: {@code varve_slo_requests_total}). */
  public static final String NAME = "varve.slo.requests";

  private enum Latency {
    WITHIN_TARGET,
    OVER_TARGET,
    OVER_MAX;

    String tag() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  private final MeterRegistry registry;
  private final Function<String, Optional<Slos>> objectives;
  private final Map<String, Map<String, Counter[]>> counters = new ConcurrentHashMap<>();

  /**
   * @param objectives the objectives of a namespace this server serves, without reading the store
   */
  public SloCounters(MeterRegistry registry, Function<String, Optional<Slos>> objectives) {
    this.registry = registry;
    this.objectives = objectives;
  }

  /** Counts one answer of {@code endpoint} for {@code namespace}, {@code elapsedNanos} after. */
  public void record(String namespace, String endpoint, long elapsedNanos) {
    Optional<Slos> slos = objectives.apply(namespace);
    if (slos.isEmpty()) {
      return;
    }
    LatencySlo slo = slos.get().byEndpoint().get(endpoint);
    if (slo == null) {
      return;
    }
    Latency latency =
        elapsedNanos <= slo.target().toNanos()
            ? Latency.WITHIN_TARGET
            : elapsedNanos <= slo.max().toNanos() ? Latency.OVER_TARGET : Latency.OVER_MAX;
    counters
        .computeIfAbsent(namespace, n -> new ConcurrentHashMap<>())
        .computeIfAbsent(endpoint, e -> register(namespace, e))[latency.ordinal()]
        .increment();
  }

  /** Removes a deleted namespace's series. */
  public void forget(String namespace) {
    Map<String, Counter[]> gone = counters.remove(namespace);
    if (gone != null) {
      gone.values().forEach(series -> java.util.Arrays.stream(series).forEach(registry::remove));
    }
  }

  private Counter[] register(String namespace, String endpoint) {
    Counter[] series = new Counter[Latency.values().length];
    for (Latency latency : Latency.values()) {
      series[latency.ordinal()] =
          Counter.builder(NAME)
              .description(
                  "Answers by namespace and endpoint against the namespace's latency objectives")
              .tag("namespace", namespace)
              .tag("endpoint", endpoint)
              .tag("latency", latency.tag())
              .register(registry);
    }
    return series;
  }
}
