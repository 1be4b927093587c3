package io.varve.server.kv;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.kv.ChunkSweep;
import io.varve.server.health.BackgroundWorker;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * The background worker that removes chunks no committed item refers to ({@link ChunkSweep}), one
 * pass every {@code kv.chunks.sweepInterval}. A failed pass is logged, counted and retried at the
 * next interval; the worker never stops on its own.
 *
 * <p>Metrics: {@code varve_kv_chunks_removed_total} (chunks deleted), {@code
 * varve_kv_chunks_sweep_passes_total}, {@code varve_kv_chunks_sweep_failures_total} (failed passes
 * and entries whose handling failed), and the {@code varve_background_*} series of worker {@code
 * chunk-sweeper}.
 */
public final class ChunkSweeper implements AutoCloseable {

  private final ChunkSweep sweep;
  private final BackgroundWorker worker;
  private final Counter removed;
  private final Counter passes;
  private final Counter failures;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "varve-chunk-sweeper");
            t.setDaemon(true);
            return t;
          });

  public ChunkSweeper(ChunkSweep sweep, BackgroundWorker worker, MeterRegistry metrics) {
    this.sweep = sweep;
    this.worker = worker;
    this.removed =
        Counter.builder("varve.kv.chunks.removed")
            .description("Chunks of values no committed item refers to, deleted by the sweeper")
            .register(metrics);
    this.passes =
        Counter.builder("varve.kv.chunks.sweep.passes")
            .description("Completed passes of the chunk sweeper")
            .register(metrics);
    this.failures =
        Counter.builder("varve.kv.chunks.sweep.failures")
            .description(
                "Failed chunk sweeper passes, and staged values whose handling failed (retried later)")
            .register(metrics);
  }

  /** Runs a pass every {@code interval}, the first one an interval from now. */
  public void start(Duration interval) {
    scheduler.scheduleWithFixedDelay(
        this::pass, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /** One pass; nothing escapes it (a periodic task that throws would be cancelled for good). */
  void pass() {
    boolean ok =
        worker.run(
            () -> {
              ChunkSweep.Result result = sweep.pass().toCompletableFuture().join();
              removed.increment(result.chunksRemoved());
              failures.increment(result.failures());
              passes.increment();
            });
    if (!ok) {
      failures.increment();
    }
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
