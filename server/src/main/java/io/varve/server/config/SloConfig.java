package io.varve.server.config;

import io.varve.api.common.v1.EndpointSlo;
import io.varve.api.common.v1.LatencySlo;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.slo.SloCatalog;
import io.varve.core.slo.Slos;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Reads a configuration's {@code slos} (endpoint or group to {@code latency {target, max}}) into
 * the core {@link Slos} of a service's catalog, and writes effective objectives back in the same
 * shape. Shared by the services: each passes its own {@link SloCatalog}.
 */
public final class SloConfig {

  private SloConfig() {}

  /**
   * The effective objectives of {@code slos}; {@code field} is its path, and errors name the key
   * below it.
   */
  public static Slos read(SloCatalog catalog, Map<String, EndpointSlo> slos, String field) {
    Map<String, Slos.Given> given = new LinkedHashMap<>();
    slos.forEach(
        (key, slo) -> {
          String latency = field + "." + key + ".latency";
          LatencySlo l = slo.getLatency();
          given.put(
              key,
              new Slos.Given(
                  slo.hasLatency(),
                  l.hasTarget()
                      ? Optional.of(duration(latency + ".target", l.getTarget()))
                      : Optional.empty(),
                  l.hasMax()
                      ? Optional.of(duration(latency + ".max", l.getMax()))
                      : Optional.empty()));
        });
    return Slos.of(catalog, given, field);
  }

  /** Every endpoint's objectives in the configuration's shape. */
  public static Map<String, EndpointSlo> write(Slos slos) {
    Map<String, EndpointSlo> out = new LinkedHashMap<>();
    slos.byEndpoint()
        .forEach(
            (endpoint, slo) ->
                out.put(
                    endpoint,
                    EndpointSlo.newBuilder()
                        .setLatency(
                            LatencySlo.newBuilder()
                                .setTarget(ConfigDurations.of(slo.target()))
                                .setMax(ConfigDurations.of(slo.max())))
                        .build()));
    return out;
  }

  private static Duration duration(String field, com.google.protobuf.Duration value) {
    if (!com.google.protobuf.util.Durations.isValid(value)) {
      throw new InvalidFieldException(
          field,
          "{seconds: " + value.getSeconds() + ", nanos: " + value.getNanos() + "}",
          "a valid duration");
    }
    return Duration.ofSeconds(value.getSeconds(), value.getNanos());
  }
}
