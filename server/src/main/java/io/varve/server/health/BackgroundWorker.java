package io.varve.server.health;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One background worker's record of its cycles: when it last completed one, how many failed and why
 * the last did. {@link #run} runs a cycle so that no failure, not even an {@link Error}, escapes
 * it: a periodic task that throws is silently cancelled by its scheduler, and a thread that throws
 * ends. Thread-safe.
 *
 * <p>Metrics, tagged {@code worker}: {@code varve_background_cycles_total}, {@code
 * varve_background_failures_total}, {@code varve_background_last_success_seconds} (epoch seconds of
 * the last completed cycle, or of the start).
 */
public final class BackgroundWorker {

  private static final Logger log = LoggerFactory.getLogger(BackgroundWorker.class);

  /** What health reports of a worker. */
  public record Status(
      String name,
      boolean critical,
      boolean stale,
      Instant lastSuccess,
      long failures,
      Optional<String> lastFailure) {}

  private final String name;
  private final boolean critical;
  private final Duration staleAfter;
  private final Clock clock;
  private final Counter cycles;
  private final Counter failures;
  private final AtomicLong lastSuccessMillis;
  private final AtomicReference<String> lastFailure = new AtomicReference<>();

  BackgroundWorker(
      String name, boolean critical, Duration staleAfter, Clock clock, MeterRegistry metrics) {
    this.name = name;
    this.critical = critical;
    this.staleAfter = staleAfter;
    this.clock = clock;
    this.lastSuccessMillis = new AtomicLong(clock.millis());
    this.cycles =
        Counter.builder("varve.background.cycles")
            .tag("worker", name)
            .description("Cycles a background worker completed")
            .register(metrics);
    this.failures =
        Counter.builder("varve.background.failures")
            .tag("worker", name)
            .description(
                "Failures caught in a background worker's cycles; the worker keeps running")
            .register(metrics);
    Gauge.builder("varve.background.last.success.seconds", lastSuccessMillis, m -> m.get() / 1000.0)
        .tag("worker", name)
        .description("When a background worker last completed a cycle (epoch seconds)")
        .register(metrics);
  }

  public String name() {
    return name;
  }

  /**
   * Runs one cycle; a failure of any kind is logged, counted and kept for health, never thrown.
   * Returns whether the cycle completed.
   */
  public boolean run(Runnable cycle) {
    try {
      cycle.run();
      succeeded();
      return true;
    } catch (Throwable t) {
      failed(null, t);
      return false;
    }
  }

  /** Records a completed cycle. */
  public void succeeded() {
    lastSuccessMillis.set(clock.millis());
    cycles.increment();
  }

  /**
   * Records a failure caught inside a cycle (of one namespace, say: {@code what}), without ending
   * the cycle. Logs it with its stack trace.
   */
  public void failed(String what, Throwable t) {
    failures.increment();
    String text = (what == null ? "" : what + ": ") + t;
    lastFailure.set(Instant.ofEpochMilli(clock.millis()) + " " + text);
    log.error(
        "background worker {} failed{}; it keeps running and retries next cycle",
        name,
        what == null ? "" : " (" + what + ")",
        t);
  }

  /** The worker's state now. */
  public Status status() {
    Instant last = Instant.ofEpochMilli(lastSuccessMillis.get());
    boolean stale = Duration.between(last, clock.instant()).compareTo(staleAfter) > 0;
    return new Status(
        name,
        critical,
        stale,
        last,
        (long) failures.count(),
        Optional.ofNullable(lastFailure.get()));
  }
}
