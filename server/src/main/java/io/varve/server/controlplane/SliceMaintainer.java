package io.varve.server.controlplane;

import io.varve.core.error.VarveException;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.partitioning.SlicePlanner;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.SliceTables;
import io.varve.server.health.BackgroundWorker;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The control plane's background task. For every namespace, on every cycle:
 *
 * <ol>
 *   <li>creates the slice tables that must exist to cover {@code [now - acceptLimit, now +
 *       futureLimit + one slice)}: the slice holding now first, then later ones, then earlier ones;
 *       a table is created before its slice is recorded, so a recorded slice always has its table;
 *   <li>applies retention: a slice whose end is older than {@code close_after} becomes CLOSED, one
 *       older than {@code delete_after} becomes DELETING, has its table dropped and becomes
 *       DELETED; a CLOSED slice whose end is no longer older than {@code close_after} (raised or
 *       removed) becomes ACTIVE again.
 * </ol>
 *
 * Writes never create tables; an event whose slice does not exist yet is refused as UNAVAILABLE.
 * Several servers may run this at once: every step is idempotent. A namespace whose stored
 * configuration is outside the bounds is skipped. Failures of any kind are recorded in the {@link
 * BackgroundWorker} and the task keeps its schedule.
 */
public final class SliceMaintainer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(SliceMaintainer.class);

  private final NamespaceRegistry registry;
  private final MetadataStore store;
  private final SliceTables tables;
  private final Clock clock;
  private final Duration futureLimit;
  private final BackgroundWorker worker;
  private final NamespaceDeletion deletion;
  private final CompactionSwitcher compactions;
  private final ScheduledExecutorService scheduler =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "varve-slice-maintainer");
            t.setDaemon(true);
            return t;
          });

  /**
   * @param deletion finishes, on each cycle, the deletions that their DeleteNamespace left
   *     unfinished
   * @param compactions switches, on each cycle, the compaction of a slice past its accept limit
   * @param worker where each cycle's completion and failures are recorded (metrics and health)
   */
  public SliceMaintainer(
      NamespaceRegistry registry,
      MetadataStore store,
      SliceTables tables,
      Clock clock,
      Duration futureLimit,
      NamespaceDeletion deletion,
      CompactionSwitcher compactions,
      BackgroundWorker worker) {
    this.deletion = deletion;
    this.compactions = compactions;
    this.worker = worker;
    this.registry = registry;
    this.store = store;
    this.tables = tables;
    this.clock = clock;
    this.futureLimit = futureLimit;
  }

  /** Runs a cycle over all namespaces every {@code interval}, starting now. */
  public void start(Duration interval) {
    scheduler.scheduleWithFixedDelay(this::cycle, 0, interval.toMillis(), TimeUnit.MILLISECONDS);
  }

  /**
   * One cycle over every namespace. Nothing escapes it, not even an Error: a periodic task that
   * throws is cancelled for good by its executor. A namespace's failure is recorded and the cycle
   * goes on with the others; a failure of the whole cycle (the metadata store unreachable) is
   * recorded and retried next cycle.
   */
  void cycle() {
    worker.run(
        () -> {
          Collection<NamespaceEntry> entries = registry.refresh().toCompletableFuture().join();
          for (NamespaceEntry entry : entries) {
            if (entry.record().deleting() && entry.invalid().isEmpty()) {
              resumeDeletion(entry);
              continue;
            }
            if (!entry.served()) {
              continue; // reported by the registry; acting on it is what its bounds forbid
            }
            try {
              maintain(entry).toCompletableFuture().join();
            } catch (Throwable t) {
              worker.failed("namespace " + entry.record().namespace(), t);
            }
          }
          if (compactions != null) {
            try {
              compactions.cycle(entries).toCompletableFuture().join();
            } catch (Throwable t) {
              worker.failed("compaction switch", t);
            }
          }
        });
  }

  /**
   * Finishes a deletion whose DeleteNamespace ended before it did (a restart, a failure): once its
   * mark is older than the time DeleteNamespace itself waits, so that the two rarely run at once
   * (they may: every step is idempotent).
   */
  private void resumeDeletion(NamespaceEntry entry) {
    Instant since = entry.record().deletingSince().orElseThrow();
    if (since.plus(NamespaceDeletion.ANSWER_WITHIN).isAfter(clock.instant())) {
      return;
    }
    try {
      log.info("finishing the deletion of namespace {}", entry.record().namespace());
      deletion.finish(entry).toCompletableFuture().join();
    } catch (Throwable t) {
      worker.failed("deletion of namespace " + entry.record().namespace(), t);
    }
  }

  /** Brings one namespace's slices up to date; completes with the refreshed entry. */
  public CompletionStage<NamespaceEntry> maintain(NamespaceEntry entry) {
    if (!entry.served() || entry.keyValue().isPresent()) {
      return CompletableFuture.completedFuture(
          entry); // a KeyValue namespace has one table and no slices
    }
    NamespaceSettings s = entry.settings();
    Instant now = clock.instant();
    Instant from = now.minus(s.acceptLimit());
    Instant to = now.plus(futureLimit).plusSeconds(s.partition().secondsPerTimeSlice());
    List<TimeSlice> missing =
        new ArrayList<>(
            SlicePlanner.missing(s.namespace(), s.partition(), entry.slices(), from, to));
    long nowMillis = now.toEpochMilli();
    missing.sort(
        Comparator.comparingLong(
            slice ->
                slice.end().toEpochMilli() <= nowMillis
                    ? Long.MAX_VALUE - slice.end().toEpochMilli()
                    : slice.start().toEpochMilli()));
    CompletionStage<Void> chain =
        missing.isEmpty()
            ? CompletableFuture.completedFuture(null)
            : tables.createKeyspaceIfMissing(s.keyspace());
    for (TimeSlice slice : missing) {
      Duration writeLife =
          Duration.ofSeconds(s.partition().secondsPerTimeSlice())
              .plus(s.acceptLimit())
              .plus(futureLimit);
      chain =
          chain
              .thenCompose(
                  v -> tables.create(s.keyspace(), slice.table(), s.compaction().open(), writeLife))
              .thenCompose(
                  strategy -> {
                    TimeSlice created = slice.withStatus(SliceStatus.ACTIVE, now);
                    return store.putSlice(
                        strategy.map(name -> created.withCompaction(name, now)).orElse(created));
                  })
              .thenRun(
                  () ->
                      log.info(
                          "created time slice {}.{} [{}, {})",
                          s.keyspace(),
                          slice.table(),
                          slice.start(),
                          slice.end()));
    }
    if (!missing.isEmpty()) {
      chain = chain.thenCompose(v -> undoIfDeleted(entry, missing));
    }
    for (TimeSlice slice : entry.slices()) {
      chain = chain.thenCompose(v -> retire(s, slice, now));
      if (slice.lifecycle().previous().filter(p -> p.dropAfter().isBefore(now)).isPresent()
          && slice.status().hasTable()) {
        chain = chain.thenCompose(v -> dropPrevious(s, slice));
      }
    }
    return chain
        .thenCompose(v -> store.slices(s.namespace()))
        .thenApply(slices -> registry.put(entry.withSlices(slices)));
  }

  /**
   * Applies retention to one slice. Its end past {@code delete_after}: DELETING, table dropped,
   * DELETED (a DELETING slice is finished whatever the retention says now). Past {@code
   * close_after}: an ACTIVE slice becomes CLOSED. Not past it (close_after raised or removed): a
   * CLOSED slice becomes ACTIVE again, once its table is seen to exist.
   */
  private CompletionStage<Void> retire(NamespaceSettings s, TimeSlice slice, Instant now) {
    boolean pastDelete =
        s.retention().deleteAfter().isPresent()
            && slice.end().isBefore(now.minus(s.retention().deleteAfter().get()));
    boolean pastClose =
        s.retention().closeAfter().isPresent()
            && slice.end().isBefore(now.minus(s.retention().closeAfter().get()));
    if (slice.status() == SliceStatus.DELETING || (slice.status().hasTable() && pastDelete)) {
      CompletionStage<TimeSlice> deleting =
          slice.status() == SliceStatus.DELETING
              ? CompletableFuture.completedFuture(slice)
              : move(slice, SliceStatus.DELETING, now);
      return deleting.thenCompose(
          marked ->
              marked == null
                  ? CompletableFuture.completedFuture(null)
                  : dropAll(s.keyspace(), slice)
                      .thenCompose(v -> move(marked, SliceStatus.DELETED, now))
                      .thenRun(
                          () ->
                              log.info(
                                  "dropped time slice {}.{} (retention delete_after)",
                                  s.keyspace(),
                                  slice.table())));
    }
    if (slice.status() == SliceStatus.ACTIVE && pastClose) {
      return move(slice, SliceStatus.CLOSED, now)
          .thenAccept(
              moved -> {
                if (moved != null) {
                  log.info(
                      "closed time slice {}.{} (retention close_after)",
                      s.keyspace(),
                      slice.table());
                }
              });
    }
    if (slice.status() == SliceStatus.CLOSED && !pastClose) {
      return tables
          .exists(s.keyspace(), slice.table())
          .thenCompose(
              exists -> {
                if (!exists) {
                  // a drop that a server of an earlier version left unrecorded
                  log.warn(
                      "time slice {}.{} is CLOSED but its table is gone: recorded as DELETED",
                      s.keyspace(),
                      slice.table());
                  return move(slice, SliceStatus.DELETED, now).thenApply(moved -> null);
                }
                return move(slice, SliceStatus.ACTIVE, now)
                    .thenAccept(
                        moved -> {
                          if (moved != null) {
                            log.info(
                                "reopened time slice {}.{} (retention close_after extended)",
                                s.keyspace(),
                                slice.table());
                          }
                        });
              });
    }
    return CompletableFuture.completedFuture(null);
  }

  /** Drops a slice's table and the tables of its re-partitioning, pending or previous. */
  private CompletionStage<Void> dropAll(String keyspace, TimeSlice slice) {
    CompletionStage<Void> drops = tables.drop(keyspace, slice.table());
    for (String other : slice.lifecycle().otherTables()) {
      drops = drops.thenCompose(v -> tables.drop(keyspace, other));
    }
    return drops;
  }

  /**
   * Drops the table a slice was read from before its re-partitioning, once its grace is over (every
   * server reads the new one by then), and forgets it.
   */
  private CompletionStage<Void> dropPrevious(NamespaceSettings s, TimeSlice slice) {
    String previous = slice.lifecycle().previous().orElseThrow().table();
    return tables
        .drop(s.keyspace(), previous)
        .thenCompose(v -> store.forgetPreviousTable(slice))
        .thenAccept(
            forgotten -> {
              if (forgotten) {
                log.info(
                    "dropped {}.{}, the table time slice {} was read from before its"
                        + " re-partitioning into {}",
                    s.keyspace(),
                    previous,
                    slice.start(),
                    slice.table());
              }
            });
  }

  /**
   * Reads the namespace's record again after creating slices: when a DeleteNamespace marked it (or
   * finished) meanwhile, its deletion may have listed the slices before these were recorded, so
   * they are dropped and forgotten here. Completes exceptionally then, so that nothing else is done
   * for the namespace.
   */
  private CompletionStage<Void> undoIfDeleted(NamespaceEntry entry, List<TimeSlice> created) {
    String keyspace = entry.settings().keyspace();
    return store
        .get(entry.record().namespace())
        .thenCompose(
            record -> {
              boolean deleted =
                  record.isEmpty()
                      || (record.get().deleting()
                          && record.get().createTime().equals(entry.record().createTime()));
              if (!deleted) {
                return CompletableFuture.completedFuture(null);
              }
              CompletionStage<Void> undo = CompletableFuture.completedFuture(null);
              for (TimeSlice slice : created) {
                undo =
                    undo.thenCompose(v -> tables.drop(keyspace, slice.table()))
                        .thenCompose(v -> store.removeSlice(slice));
              }
              return undo.thenRun(
                  () -> {
                    throw VarveException.notFound(
                        "namespace '"
                            + entry.record().namespace()
                            + "' was deleted while its slices were created: they are dropped");
                  });
            });
  }

  /**
   * Moves {@code slice} to {@code status} unless another server moved it first; completes with the
   * moved slice, or null when it was not moved (the next cycle sees what the other did).
   */
  private CompletionStage<TimeSlice> move(TimeSlice slice, SliceStatus status, Instant now) {
    return store
        .setSliceStatus(slice, status, now)
        .thenApply(moved -> moved ? slice.withStatus(status, now) : null);
  }

  @Override
  public void close() {
    scheduler.shutdownNow();
  }
}
