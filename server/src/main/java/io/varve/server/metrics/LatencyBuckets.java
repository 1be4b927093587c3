package io.varve.server.metrics;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import java.time.Duration;
import java.util.Set;

/**
 * How the server's latency timers are published: as Prometheus histograms with fixed buckets
 * ({@code _bucket{le}}), not as quantiles each server computes over its own last minutes.
 *
 * <p>Buckets add up across servers and over any interval ({@code histogram_quantile} over {@code
 * sum by (le) (rate(..._bucket))}), where a server's quantiles cannot be combined with another's;
 * and recording a call is a binary search and an increment, where a quantile window recorded every
 * call into rotating HdrHistograms (a measurable share of the server's CPU per item, see
 * docs/performance.md).
 *
 * <p>Timers given buckets: the API's {@code varve.api.total.duration} and {@code
 * varve.api.response.duration}, and the driver's {@code varve.cassandra.requests}. The API's other
 * distributions ({@code varve.api.request.duration} and the request and response lengths) keep
 * their count, sum and max only.
 */
public final class LatencyBuckets {

  /** The buckets' upper bounds: from half a millisecond to the longest timeout a request has. */
  static final Duration[] BOUNDS = {
    Duration.ofMillis(1).dividedBy(2),
    Duration.ofMillis(1),
    Duration.ofMillis(2),
    Duration.ofMillis(5),
    Duration.ofMillis(10),
    Duration.ofMillis(25),
    Duration.ofMillis(50),
    Duration.ofMillis(100),
    Duration.ofMillis(250),
    Duration.ofMillis(500),
    Duration.ofSeconds(1),
    Duration.ofMillis(2500),
    Duration.ofSeconds(5),
    Duration.ofSeconds(10),
    Duration.ofSeconds(30),
    Duration.ofSeconds(60)
  };

  private static final Set<String> BUCKETED =
      Set.of("varve.api.total.duration", "varve.api.response.duration", "varve.cassandra.requests");

  private static final String API = "varve.api.";

  private LatencyBuckets() {}

  /** Applies the buckets to {@code registry}: before any of its meters is registered. */
  public static void apply(MeterRegistry registry) {
    registry.config().meterFilter(FILTER);
  }

  private static final MeterFilter FILTER =
      new MeterFilter() {
        @Override
        public DistributionStatisticConfig configure(
            Meter.Id id, DistributionStatisticConfig config) {
          String name = id.getName();
          if (BUCKETED.contains(name)) {
            return DistributionStatisticConfig.builder()
                .percentiles()
                .percentilesHistogram(false)
                .serviceLevelObjectives(nanos(BOUNDS))
                .build()
                .merge(config);
          }
          if (name.startsWith(API)) {
            return DistributionStatisticConfig.builder()
                .percentiles()
                .percentilesHistogram(false)
                .serviceLevelObjectives()
                .build()
                .merge(config);
          }
          return config;
        }
      };

  /** Bounds in nanoseconds, the unit a timer's buckets are given in. */
  private static double[] nanos(Duration[] bounds) {
    double[] nanos = new double[bounds.length];
    for (int i = 0; i < bounds.length; i++) {
      nanos[i] = bounds[i].toNanos();
    }
    return nanos;
  }
}
