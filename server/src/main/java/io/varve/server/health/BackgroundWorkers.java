package io.varve.server.health;

import com.linecorp.armeria.server.healthcheck.HealthChecker;
import io.micrometer.core.instrument.MeterRegistry;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The server's background workers, as one health check: the server is unhealthy when a critical
 * worker (one the data plane depends on, such as the slice maintainer) has not completed a cycle
 * for longer than its bound, and degraded (still healthy) when only others have not, such as the
 * indexing workers while the index store is down. Thread-safe.
 */
public final class BackgroundWorkers implements HealthChecker {

  private final MeterRegistry metrics;
  private final Clock clock;
  private final List<BackgroundWorker> workers = new CopyOnWriteArrayList<>();

  public BackgroundWorkers(MeterRegistry metrics, Clock clock) {
    this.metrics = metrics;
    this.clock = clock;
  }

  /**
   * A new worker, reported stale when it has not completed a cycle for {@code staleAfter}.
   *
   * @param critical whether a stale worker makes the server unhealthy (else degraded)
   */
  public BackgroundWorker register(String name, boolean critical, Duration staleAfter) {
    BackgroundWorker worker = new BackgroundWorker(name, critical, staleAfter, clock, metrics);
    workers.add(worker);
    return worker;
  }

  /** Every worker's state, in registration order. */
  public List<BackgroundWorker.Status> statuses() {
    return workers.stream().map(BackgroundWorker::status).toList();
  }

  @Override
  public boolean isHealthy() {
    return statuses().stream().noneMatch(s -> s.critical() && s.stale());
  }

  /** Whether some non-critical worker is stale while the server is healthy. */
  public boolean degraded() {
    return statuses().stream().anyMatch(s -> !s.critical() && s.stale());
  }

  /**
   * How long a worker cycling every {@code interval} may go without completing a cycle before it is
   * reported: ten intervals, and never less than ten minutes, since one cycle may create many
   * tables.
   */
  public static Duration staleAfter(Duration interval) {
    Duration tenCycles = interval.multipliedBy(10);
    return tenCycles.compareTo(Duration.ofMinutes(10)) > 0 ? tenCycles : Duration.ofMinutes(10);
  }
}
