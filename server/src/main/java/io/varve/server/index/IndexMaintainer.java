package io.varve.server.index;

import io.varve.core.index.IndexSlices;
import io.varve.core.index.IndexSpec;
import io.varve.core.index.IndexStore;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import io.varve.server.health.BackgroundWorker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps each indexed namespace's index slices in shape, every cycle: creates the current and the
 * next index slice ahead of time (so the first events of a slice do not wait for index creation),
 * and deletes whole indices whose slice ended longer than the index retention's delete_after ago.
 * Closed slices (past close_after) are left out of searches and of indexing by the data plane.
 */
public final class IndexMaintainer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(IndexMaintainer.class);

  private final NamespaceRegistry registry;
  private final IndexStore store;
  private final Clock clock;
  private final BackgroundWorker worker;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "varve-index-maintainer");
            t.setDaemon(true);
            return t;
          });

  /**
   * @param worker where each cycle's completion and failures are recorded (metrics and health)
   */
  public IndexMaintainer(
      NamespaceRegistry registry, IndexStore store, Clock clock, BackgroundWorker worker) {
    this.worker = worker;
    this.registry = registry;
    this.store = store;
    this.clock = clock;
  }

  /** Runs a cycle over the cached namespaces every {@code interval}. */
  public void start(Duration interval) {
    scheduler.scheduleWithFixedDelay(
        this::cycle, interval.toMillis(), interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * One cycle; nothing escapes it (a periodic task that throws is cancelled for good by its
   * executor).
   */
  void cycle() {
    worker.run(
        () -> {
          for (NamespaceEntry entry : registry.cached()) {
            if (!entry.served()) {
              continue; // outside the bounds, or being deleted: nothing is created for it
            }
            entry
                .index()
                .ifPresent(
                    spec -> {
                      try {
                        maintain(spec).toCompletableFuture().get(5, TimeUnit.MINUTES);
                      } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                      } catch (Throwable t) {
                        worker.failed("index maintenance of namespace " + spec.namespace(), t);
                      }
                    });
          }
        });
  }

  /** One cycle for one namespace; completes with the indices deleted. */
  public CompletionStage<List<String>> maintain(IndexSpec spec) {
    Instant now = clock.instant();
    long nowMillis = now.toEpochMilli();
    CompletionStage<Void> created =
        store
            .prepare(IndexSlices.indexFor(spec, nowMillis), spec)
            .thenCompose(
                v ->
                    store.prepare(
                        IndexSlices.indexFor(spec, nowMillis + spec.secondsPerSlice() * 1000),
                        spec));
    if (spec.retention().deleteAfter().isEmpty()) {
      return created.thenApply(v -> List.of());
    }
    Duration deleteAfter = spec.retention().deleteAfter().get();
    return created
        .thenCompose(v -> store.indices(IndexSlices.prefix(spec)))
        .thenCompose(
            names -> {
              List<String> expired =
                  names.stream()
                      .filter(
                          name ->
                              IndexSlices.startOf(spec, name).stream()
                                  .anyMatch(
                                      start ->
                                          IndexSlices.endedBefore(spec, start, now, deleteAfter)))
                      .toList();
              if (expired.isEmpty()) {
                return CompletableFuture.completedFuture(expired);
              }
              return store
                  .delete(expired)
                  .thenApply(
                      d -> {
                        log.info(
                            "deleted index slices {} of namespace {} (retention delete_after {})",
                            expired,
                            spec.namespace(),
                            deleteAfter);
                        return expired;
                      });
            });
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
