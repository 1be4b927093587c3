package io.varve.server.index;

import io.varve.api.timeseries.v1.BackfillIndexRequest;
import io.varve.api.timeseries.v1.BackfillIndexResponse;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.index.IndexSlices;
import io.varve.core.index.IndexSpec;
import io.varve.core.namespace.Names;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.store.EventStore;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import io.varve.server.error.ErrorMapping;
import io.varve.server.request.RequestTimes;
import java.time.Clock;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * BackfillIndex: reads the events of [start, end) from the primary store's slice tables (one full
 * scan per overlapping slice, oldest first) and indexes them in bulk, bypassing the indexing queue.
 * Events in index slices closed by the index's retention are skipped; the index's acceptLimit does
 * not apply (a backfill may reach further back than live writes). Indexing is idempotent (document
 * ids are derived from event identity), so a backfill may overlap live indexing or another
 * backfill. Ends with a refresh, so every backfilled event is searchable when the call returns.
 */
public final class Backfill {

  private static final Logger log = LoggerFactory.getLogger(Backfill.class);

  private final NamespaceRegistry registry;
  private final EventStore events;
  private final Optional<Indexer> indexer;
  private final Clock clock;

  public Backfill(
      NamespaceRegistry registry, EventStore events, Optional<Indexer> indexer, Clock clock) {
    this.registry = registry;
    this.events = events;
    this.indexer = indexer;
    this.clock = clock;
  }

  public CompletionStage<BackfillIndexResponse> run(BackfillIndexRequest r) {
    Names.namespace("namespace", r.getNamespace());
    long[] range = interval(r);
    return registry
        .load(r.getNamespace())
        .thenCompose(
            ns -> {
              IndexSpec spec =
                  ns.index()
                      .orElseThrow(
                          () ->
                              VarveException.failedPrecondition(
                                  "namespace '"
                                      + r.getNamespace()
                                      + "' has no INDEX_STORAGE entry, so there is nothing to backfill"));
              Indexer target =
                  indexer.orElseThrow(
                      () ->
                          VarveException.failedPrecondition(
                              "this server has no index store" + " configured (opensearch.urls)"));
              return backfill(ns, spec, target, range[0], range[1]);
            });
  }

  private static long[] interval(BackfillIndexRequest r) {
    return RequestTimes.interval(r.hasTimeInterval(), r.getTimeInterval());
  }

  private CompletionStage<BackfillIndexResponse> backfill(
      NamespaceEntry ns, IndexSpec spec, Indexer target, long from, long to) {
    List<TimeSlice> slices =
        ns.slices().stream()
            .filter(s -> s.status().hasTable())
            .filter(s -> s.start().toEpochMilli() < to && s.end().toEpochMilli() > from)
            .sorted(Comparator.comparing(TimeSlice::start))
            .toList();
    AtomicLong read = new AtomicLong();
    AtomicLong indexed = new AtomicLong();
    AtomicLong failed = new AtomicLong();
    AtomicLong unparsable = new AtomicLong();
    Instant now = clock.instant();
    int batch = 1000 * Math.max(1, target.concurrency());
    CompletionStage<Void> chain = CompletableFuture.completedFuture(null);
    for (TimeSlice slice : slices) {
      chain =
          chain.thenCompose(
              v ->
                  events
                      .scan(
                          ns.settings().keyspace(),
                          slice.table(),
                          from,
                          to,
                          ns.settings().consistency(),
                          batch,
                          found -> {
                            read.addAndGet(found.size());
                            List<Event> open =
                                found.stream()
                                    .filter(
                                        e ->
                                            !IndexSlices.closed(
                                                spec,
                                                IndexSlices.sliceStart(spec, e.eventTimeMillis()),
                                                now))
                                    .toList();
                            return target
                                .indexNow(spec, open)
                                .thenAccept(
                                    o -> {
                                      indexed.addAndGet(o.indexed());
                                      failed.addAndGet(o.failed());
                                      unparsable.addAndGet(o.unparsable());
                                    });
                          })
                      .thenAccept(
                          n ->
                              log.info(
                                  "backfill of {}: slice {} scanned, {} events in range",
                                  ns.record().namespace(),
                                  slice.table(),
                                  n)));
    }
    return chain
        // every slice of the namespace, by one pattern: naming the slices of [from, to) would
        // list hundreds of thousands for an interval of years, and refreshing a slice the
        // backfill did not touch costs next to nothing
        .thenCompose(v -> target.store().refresh(List.of(IndexSlices.prefix(spec) + "*")))
        .handle(
            (v, error) -> {
              if (error != null) {
                // the code and the advice (retry or not) are those of the failure that stopped it
                ErrorMapping.Failure failure = ErrorMapping.of(error);
                throw new VarveException(
                    failure.kind(),
                    "backfill of namespace '"
                        + ns.record().namespace()
                        + "' stopped after "
                        + read.get()
                        + " events read and "
                        + indexed.get()
                        + " indexed: "
                        + failure.message(),
                    error);
              }
              return BackfillIndexResponse.newBuilder()
                  .setEventsRead(read.get())
                  .setEventsIndexed(indexed.get())
                  .setEventsFailed(failed.get())
                  .setUnparsableValues(unparsable.get())
                  .build();
            });
  }
}
