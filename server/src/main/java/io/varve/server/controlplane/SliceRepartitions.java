package io.varve.server.controlplane;

import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.CancelSliceRepartitionRequest;
import io.varve.api.timeseries.v1.CommitSliceRepartitionRequest;
import io.varve.api.timeseries.v1.PrepareSliceRepartitionRequest;
import io.varve.api.timeseries.v1.SliceRepartition;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import io.varve.core.namespace.Names;
import io.varve.core.namespace.NamespaceBounds;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.partitioning.PartitionAdvisor;
import io.varve.core.partitioning.SliceLifecycle.PendingTable;
import io.varve.core.partitioning.SliceStatus;
import io.varve.core.partitioning.SliceTableName;
import io.varve.core.partitioning.TimePartition;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.SliceTables;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Re-partitioning of a slice that receives no more writes, the control plane's side: a pending
 * table is prepared (recorded on the slice first, then created, so that a failure between the two
 * leaves a record that the next prepare completes, never an unknown table), filled by the reshaper
 * outside the server, and swapped in by one lightweight transaction; the old table is kept for a
 * grace long enough for every server to refresh the slice and finish its reads of it (reads page by
 * event time and id, never by partition, so a read that crosses the swap neither skips nor repeats
 * an event), then dropped by the slice maintainer.
 */
public final class SliceRepartitions {

  private static final Logger log = LoggerFactory.getLogger(SliceRepartitions.class);

  private final MetadataStore store;
  private final SliceTables tables;
  private final NamespaceRegistry registry;
  private final Clock clock;
  private final Duration lateWrites;
  private final Duration oldTableGrace;
  private final PartitionAdvisor.Target target;

  /**
   * @param lateWrites how much older than the accept limit a slice's end must be before no write
   *     can still land in it ({@code timeseries.readCache.safetyMargin})
   * @param oldTableGrace how long a swapped-out table is kept
   * @param target the partition target of the histograms' recommendations
   */
  public SliceRepartitions(
      MetadataStore store,
      SliceTables tables,
      NamespaceRegistry registry,
      Clock clock,
      Duration lateWrites,
      Duration oldTableGrace,
      PartitionAdvisor.Target target) {
    this.store = store;
    this.tables = tables;
    this.registry = registry;
    this.clock = clock;
    this.lateWrites = lateWrites;
    this.oldTableGrace = oldTableGrace;
    this.target = target;
  }

  /** PrepareSliceRepartition. */
  public CompletionStage<SliceRepartition> prepare(PrepareSliceRepartitionRequest request) {
    return slice(request.getNamespace(), request.hasSliceStart(), request.getSliceStart())
        .thenCompose(
            found -> {
              NamespaceSettings s = found.entry().settings();
              TimeSlice slice = found.slice();
              Instant now = clock.instant();
              Instant closed = slice.end().plus(s.acceptLimit()).plus(lateWrites);
              if (now.isBefore(closed)) {
                throw VarveException.failedPrecondition(
                    "time slice ["
                        + slice.start()
                        + ", "
                        + slice.end()
                        + ") of namespace '"
                        + s.namespace()
                        + "' still accepts writes (acceptLimit "
                        + s.acceptLimit()
                        + ", and "
                        + lateWrites
                        + " for writes on their way): it can be re-partitioned from "
                        + closed);
              }
              long width = Duration.between(slice.start(), slice.end()).toSeconds();
              long bucket;
              int events;
              if (!request.hasSecondsPerTimeBucket() && !request.hasEventBuckets()) {
                PartitionAdvisor.Recommendation r = recommendation(s, slice);
                bucket = r.secondsPerTimeBucket();
                events = r.eventBuckets();
              } else {
                bucket =
                    request.hasSecondsPerTimeBucket()
                        ? request.getSecondsPerTimeBucket()
                        : slice.secondsPerTimeBucket();
                events =
                    request.hasEventBuckets() ? request.getEventBuckets() : slice.eventBuckets();
              }
              check(width, bucket, events);
              if (bucket == slice.secondsPerTimeBucket() && events == slice.eventBuckets()) {
                throw InvalidFieldException.of(
                    request.hasEventBuckets() ? "event_buckets" : "seconds_per_time_bucket",
                    "the slice's own settings ("
                        + events
                        + " event buckets, "
                        + bucket
                        + " s time buckets) (expected: other settings)");
              }
              Optional<PendingTable> pending = slice.lifecycle().pending();
              if (pending.isPresent()) {
                PendingTable p = pending.get();
                if (p.secondsPerTimeBucket() != bucket || p.eventBuckets() != events) {
                  throw VarveException.failedPrecondition(
                      "a re-partitioning of time slice "
                          + slice.start()
                          + " to "
                          + p.eventBuckets()
                          + " event buckets and "
                          + p.secondsPerTimeBucket()
                          + " s time buckets is under way (table "
                          + p.table()
                          + "): CancelSliceRepartition it first");
                }
                // resumed: its table created if the last prepare stopped before that
                return tables
                    .create(s.keyspace(), p.table())
                    .thenApply(v -> reply(s, slice, p.table(), bucket, events, "PENDING"));
              }
              String table =
                  SliceTableName.repartitioned(s.namespace(), slice.start(), events, bucket);
              if (table.equals(slice.table())
                  || slice
                      .lifecycle()
                      .previous()
                      .filter(previous -> previous.table().equals(table))
                      .isPresent()) {
                throw VarveException.failedPrecondition(
                    "time slice "
                        + slice.start()
                        + " was read from a table of these settings before ("
                        + table
                        + "), kept until "
                        + slice.lifecycle().previous().map(p -> p.dropAfter().toString()).orElse("")
                        + ": re-partition it to them once that table is dropped");
              }
              PendingTable p = new PendingTable(table, bucket, events, now);
              return store
                  .setSlicePending(slice, Optional.of(p))
                  .thenCompose(
                      recorded -> {
                        if (!recorded) {
                          throw changed(s.namespace(), slice);
                        }
                        return tables.create(s.keyspace(), table);
                      })
                  .thenCompose(v -> registry.load(s.namespace()))
                  .thenApply(
                      v -> {
                        log.info(
                            "re-partitioning time slice {}.{} [{}, {}) into {} ({} event buckets,"
                                + " {} s time buckets, were {} and {} s)",
                            s.keyspace(),
                            slice.table(),
                            slice.start(),
                            slice.end(),
                            table,
                            events,
                            bucket,
                            slice.eventBuckets(),
                            slice.secondsPerTimeBucket());
                        return reply(s, slice, table, bucket, events, "PENDING");
                      });
            });
  }

  /** CommitSliceRepartition. */
  public CompletionStage<SliceRepartition> commit(CommitSliceRepartitionRequest request) {
    return slice(request.getNamespace(), request.hasSliceStart(), request.getSliceStart())
        .thenCompose(
            found -> {
              NamespaceSettings s = found.entry().settings();
              TimeSlice slice = found.slice();
              Optional<PendingTable> pending = slice.lifecycle().pending();
              if (pending.isEmpty() || !pending.get().table().equals(request.getTable())) {
                if (pending.isEmpty()
                    && slice.lifecycle().previous().isPresent()
                    && slice.table().equals(request.getTable())) { // committed before: the answer
                  return CompletableFuture.completedFuture(
                      committed(s, slice, slice.lifecycle().previous().map(p -> p.table())));
                }
                throw VarveException.failedPrecondition(
                    "table '"
                        + request.getTable()
                        + "' is not the pending table of time slice "
                        + slice.start()
                        + " ("
                        + pending.map(PendingTable::table).orElse("it has none")
                        + ")");
              }
              TimeSlice swapped = slice.swapped(clock.instant().plus(oldTableGrace));
              return tables
                  .exists(s.keyspace(), swapped.table())
                  .thenCompose(
                      exists -> {
                        if (!exists) {
                          throw VarveException.failedPrecondition(
                              "the pending table "
                                  + s.keyspace()
                                  + "."
                                  + swapped.table()
                                  + " does not exist: PrepareSliceRepartition again");
                        }
                        // a commit before the copy would lose the slice's events
                        return tables
                            .hasRows(s.keyspace(), slice.table())
                            .thenCombine(
                                tables.hasRows(s.keyspace(), swapped.table()),
                                (source, target) -> source && !target);
                      })
                  .thenCompose(
                      uncopied -> {
                        if (uncopied) {
                          throw VarveException.failedPrecondition(
                              "the pending table "
                                  + s.keyspace()
                                  + "."
                                  + swapped.table()
                                  + " is empty while "
                                  + slice.table()
                                  + " holds events: copy them first (varve timeseries"
                                  + " repartition does)");
                        }
                        return store.swapSliceTable(slice, swapped);
                      })
                  .thenCompose(
                      moved -> {
                        if (!moved) {
                          throw changed(s.namespace(), slice);
                        }
                        return registry.load(s.namespace());
                      })
                  .thenApply(
                      v -> {
                        log.info(
                            "time slice {} of namespace {} is read from {}.{} ({} event buckets,"
                                + " {} s time buckets) from now on; {} is dropped after {}",
                            slice.start(),
                            s.namespace(),
                            s.keyspace(),
                            swapped.table(),
                            swapped.eventBuckets(),
                            swapped.secondsPerTimeBucket(),
                            slice.table(),
                            swapped.lifecycle().previous().orElseThrow().dropAfter());
                        return committed(s, swapped, Optional.of(slice.table()));
                      });
            });
  }

  /** CancelSliceRepartition. */
  public CompletionStage<SliceRepartition> cancel(CancelSliceRepartitionRequest request) {
    return slice(request.getNamespace(), request.hasSliceStart(), request.getSliceStart())
        .thenCompose(
            found -> {
              NamespaceSettings s = found.entry().settings();
              TimeSlice slice = found.slice();
              if (slice.lifecycle().pending().isEmpty()) {
                return CompletableFuture.completedFuture(
                    reply(
                        s, slice, "", slice.secondsPerTimeBucket(), slice.eventBuckets(), "NONE"));
              }
              PendingTable p = slice.lifecycle().pending().get();
              return store
                  .setSlicePending(slice, Optional.empty())
                  .thenCompose(
                      forgotten -> {
                        if (!forgotten) {
                          throw changed(s.namespace(), slice);
                        }
                        return tables.drop(s.keyspace(), p.table());
                      })
                  .thenCompose(v -> registry.load(s.namespace()))
                  .thenApply(
                      v -> {
                        log.info(
                            "cancelled the re-partitioning of time slice {}.{}: dropped {}",
                            s.keyspace(),
                            slice.table(),
                            p.table());
                        return reply(
                            s,
                            slice,
                            p.table(),
                            p.secondsPerTimeBucket(),
                            p.eventBuckets(),
                            "CANCELLED");
                      });
            });
  }

  private record Found(NamespaceEntry entry, TimeSlice slice) {}

  /** The served TimeSeries namespace's slice starting at {@code start}, read from the store. */
  private CompletionStage<Found> slice(String namespace, boolean hasStart, Timestamp start) {
    Names.namespace("namespace", namespace);
    if (!hasStart) {
      throw InvalidFieldException.of("slice_start", "absent (expected: a slice's start time)");
    }
    Instant at = Instant.ofEpochSecond(start.getSeconds(), start.getNanos());
    return registry
        .load(namespace)
        .thenApply(
            entry -> {
              entry.requireServed();
              TimeSlice slice =
                  entry.slices().stream()
                      .filter(x -> x.start().equals(at))
                      .findFirst()
                      .orElseThrow(
                          () ->
                              VarveException.notFound(
                                  "namespace '"
                                      + namespace
                                      + "' has no time slice starting at "
                                      + at
                                      + " (ListTimeSlices lists them)"));
              if (slice.status() != SliceStatus.ACTIVE) {
                throw VarveException.failedPrecondition(
                    "time slice "
                        + at
                        + " of namespace '"
                        + namespace
                        + "' is "
                        + slice.status()
                        + ": only an ACTIVE slice is re-partitioned");
              }
              return new Found(entry, slice);
            });
  }

  /** The recommendation of the slice's own histogram, when neither setting is given. */
  private PartitionAdvisor.Recommendation recommendation(NamespaceSettings s, TimeSlice slice) {
    if (!PartitionAdvisor.hasPartitions(slice)) {
      throw InvalidFieldException.of(
          "event_buckets",
          "absent, as seconds_per_time_bucket (expected: at least one of them; without both, the"
              + " recommendation of the slice's histogram, which it does not have yet)");
    }
    long width = Duration.between(slice.start(), slice.end()).toSeconds();
    return PartitionAdvisor.recommend(
        slice,
        slice.lifecycle().histogram().orElseThrow(),
        new TimePartition(width, slice.secondsPerTimeBucket(), slice.eventBuckets()),
        target);
  }

  private static void check(long width, long bucket, int events) {
    if (events < 1 || events > TimePartition.MAX_EVENT_BUCKETS) {
      throw new InvalidFieldException(
          "event_buckets", events, "1.." + TimePartition.MAX_EVENT_BUCKETS);
    }
    long min = NamespaceBounds.MIN_SECONDS_PER_TIME_BUCKET;
    if (bucket < min
        || bucket > width
        || width % bucket != 0
        || width / bucket > NamespaceBounds.MAX_TIME_BUCKETS_PER_SLICE) {
      throw new InvalidFieldException(
          "seconds_per_time_bucket",
          bucket,
          min
              + ".."
              + width
              + " seconds dividing the slice width "
              + width
              + ", at most "
              + NamespaceBounds.MAX_TIME_BUCKETS_PER_SLICE
              + " buckets in the slice");
    }
  }

  private static VarveException changed(String namespace, TimeSlice slice) {
    return VarveException.failedPrecondition(
        "time slice "
            + slice.start()
            + " of namespace '"
            + namespace
            + "' was changed concurrently; call again");
  }

  private static SliceRepartition reply(
      NamespaceSettings s, TimeSlice slice, String table, long bucket, int events, String state) {
    return SliceRepartition.newBuilder()
        .setNamespace(s.namespace())
        .setKeyspace(s.keyspace())
        .setSliceStart(ControlPlaneHandler.timestamp(slice.start()))
        .setSliceEnd(ControlPlaneHandler.timestamp(slice.end()))
        .setSourceTable(slice.table())
        .setTargetTable(table)
        .setSecondsPerTimeBucket(bucket)
        .setEventBuckets(events)
        .setState(state)
        .build();
  }

  private static SliceRepartition committed(
      NamespaceSettings s, TimeSlice now, Optional<String> source) {
    SliceRepartition.Builder reply =
        reply(s, now, now.table(), now.secondsPerTimeBucket(), now.eventBuckets(), "COMMITTED")
            .toBuilder()
            .setSourceTable(source.orElse(""));
    now.lifecycle()
        .previous()
        .ifPresent(p -> reply.setSourceDropTime(ControlPlaneHandler.timestamp(p.dropAfter())));
    return reply.build();
  }
}
