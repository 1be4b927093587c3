package io.varve.server.admission;

import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.AIMDLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How many writes of each write RPC the server works on at once: an adaptive limit per RPC (the
 * additive-increase, multiplicative-decrease limit of Netflix's concurrency-limits library). The
 * limit grows by one while writes complete within {@code slowWrite} and the writes in flight use at
 * least half of it; it shrinks by a tenth each time a write takes longer, or is cancelled or times
 * out (its caller gave up), down to {@value #MIN_LIMIT}; it never exceeds {@code max}. A write
 * beyond the limit is refused at once, before its body is read.
 *
 * <p>Why: on a saturated server (CPU or Cassandra) every admitted write shares what is left. The
 * byte budgets bound memory and the backlog bound sees only the writes queued for a decoding thread
 * or for Cassandra, not those whose bodies are still arriving, competing for the event loops and
 * the collector. Admitting fewer at a time lets those admitted finish within their callers'
 * deadlines, and the rest are told at once to back off (RESOURCE_EXHAUSTED) instead of timing out.
 * A limit per RPC: a fire-and-forget write's time (queued, answered) says nothing about a durable
 * one's (written to Cassandra). Thread-safe.
 *
 * <p>Metrics: {@code varve_admission_write_limit{rpc}} and {@code
 * varve_admission_write_inflight{rpc}}.
 */
public final class WriteConcurrency {

  /** The smallest limit: enough writes at once to keep every core and a Cassandra node busy. */
  public static final int MIN_LIMIT = 8;

  /** How a write's exchange ended, as the limit learns from it. */
  public enum Outcome {
    /** Answered: its time counts (slower than {@code slowWrite} shrinks the limit). */
    ANSWERED,
    /** Cancelled, timed out, or the store was unavailable: the server is overloaded. */
    DROPPED,
    /** Refused for its content (invalid, not found, buffer full): its time says nothing. */
    IGNORED
  }

  /** A write's turn; {@link #end} once, when its exchange is over. */
  public interface Turn {
    void end(Outcome outcome);
  }

  private final int max;
  private final Duration slowWrite;
  private final MeterRegistry metrics;
  private final LongSupplier nanos;
  private final Map<String, SimpleLimiter<Void>> limiters = new ConcurrentHashMap<>();

  /**
   * @param max the largest limit of one write RPC, and the limit it starts from
   * @param slowWrite a write that takes longer shrinks the limit
   */
  public WriteConcurrency(int max, Duration slowWrite, MeterRegistry metrics) {
    this(max, slowWrite, metrics, System::nanoTime);
  }

  /** As above, timing writes with {@code nanos}. */
  WriteConcurrency(int max, Duration slowWrite, MeterRegistry metrics, LongSupplier nanos) {
    if (max < MIN_LIMIT) {
      throw new IllegalArgumentException(
          "maxConcurrentWrites: " + max + " (expected: at least " + MIN_LIMIT + ")");
    }
    this.max = max;
    this.slowWrite = slowWrite;
    this.metrics = metrics;
    this.nanos = nanos;
  }

  /** A turn for a write of {@code rpc}, or empty when its limit is reached. */
  public Optional<Turn> acquire(String rpc) {
    return limiter(rpc).acquire(null).map(WriteConcurrency::turn);
  }

  /** The current limit of {@code rpc}. */
  public int limit(String rpc) {
    return limiter(rpc).getLimit();
  }

  /** The writes of {@code rpc} in flight. */
  public int inFlight(String rpc) {
    return limiter(rpc).getInflight();
  }

  private static Turn turn(Limiter.Listener listener) {
    return outcome -> {
      switch (outcome) {
        case ANSWERED -> listener.onSuccess();
        case DROPPED -> listener.onDropped();
        case IGNORED -> listener.onIgnore();
      }
    };
  }

  private SimpleLimiter<Void> limiter(String rpc) {
    return limiters.computeIfAbsent(
        rpc,
        name -> {
          SimpleLimiter<Void> limiter =
              SimpleLimiter.newBuilder()
                  .named(name)
                  .nanoClock(nanos)
                  .limit(
                      AIMDLimit.newBuilder()
                          .initialLimit(max)
                          .minLimit(MIN_LIMIT)
                          .maxLimit(max)
                          .timeout(slowWrite.toNanos(), TimeUnit.NANOSECONDS)
                          .build())
                  .build();
          Gauge.builder("varve.admission.write.limit", limiter, SimpleLimiter::getLimit)
              .description("writes of the RPC the server works on at once at most (adaptive)")
              .tag("rpc", name)
              .register(metrics);
          Gauge.builder("varve.admission.write.inflight", limiter, SimpleLimiter::getInflight)
              .description("writes of the RPC in flight")
              .tag("rpc", name)
              .register(metrics);
          return limiter;
        });
  }
}
