package io.varve.server.metrics;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.limit.AsyncLimiter;
import io.varve.core.limit.Bound;

/**
 * The gauges of every bound on work in flight, one family for all: {@code
 * varve_limit_inuse_<unit>{limit}} and {@code varve_limit_capacity_<unit>{limit}} (unit {@code
 * calls} or {@code bytes}), and for limiters that queue, {@code varve_limit_waiting_calls{limit}}.
 * The limits: {@code admission_write}, {@code admission_read} (request bytes admitted), {@code
 * cassandra_writes} (write batches sent to Cassandra, both services), {@code cassandra_reads}
 * (partition reads of TimeSeries reads and searches).
 */
public final class LimitGauges {

  private LimitGauges() {}

  /** Registers the gauges of {@code bound}. */
  public static void register(MeterRegistry registry, Bound bound) {
    String unit = bound.unit().metricName();
    Gauge.builder("varve.limit.inuse." + unit, bound, Bound::inUse)
        .description("what the operations in flight hold of the limit")
        .tag("limit", bound.name())
        .baseUnit(unit)
        .strongReference(true)
        .register(registry);
    Gauge.builder("varve.limit.capacity." + unit, bound, Bound::capacity)
        .description("what the limit allows in flight at once")
        .tag("limit", bound.name())
        .baseUnit(unit)
        .strongReference(true)
        .register(registry);
  }

  /** Registers the gauges of {@code limiter}'s bounds and of the operations waiting for them. */
  public static void register(MeterRegistry registry, AsyncLimiter limiter) {
    limiter.bounds().forEach(b -> register(registry, b));
    Gauge.builder("varve.limit.waiting.calls", limiter, AsyncLimiter::waiting)
        .description("operations waiting, in order, for room under the limit")
        .tag("limit", limiter.name())
        .baseUnit(Bound.Unit.CALLS.metricName())
        .strongReference(true)
        .register(registry);
  }
}
