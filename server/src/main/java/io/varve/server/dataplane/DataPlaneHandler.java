package io.varve.server.dataplane;

import io.micrometer.core.instrument.MeterRegistry;
import io.varve.api.timeseries.v1.EventError;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.api.timeseries.v1.WriteEventRecordsQueuedResponse;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.event.Limits;
import io.varve.core.event.WriteValidator;
import io.varve.core.namespace.Names;
import io.varve.core.namespace.TimeSeriesSlos;
import io.varve.core.read.BucketScan;
import io.varve.core.read.Cursor;
import io.varve.core.read.PageTokens;
import io.varve.core.read.ReadBytes;
import io.varve.core.read.ReadPlanner;
import io.varve.core.read.ScanBudget;
import io.varve.core.read.ScatterGather;
import io.varve.core.store.EventStore;
import io.varve.core.write.PlacedEvent;
import io.varve.core.write.Rejection;
import io.varve.core.write.WritePlan;
import io.varve.core.write.WritePlanner;
import io.varve.server.admission.ResponseAdmission;
import io.varve.server.buffer.WriteBuffers;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import io.varve.server.error.ErrorMapping;
import io.varve.server.index.Indexer;
import io.varve.server.request.ReadBudgets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The data plane's RPCs: validates requests, plans them with core and runs them on the event store.
 * Never touches the metadata store on a request's path (the registry caches it). A read page stops
 * early, {@code partial}, rather than exceed the namespace's ReadEventRecords latency max or the
 * caller's deadline ({@link ReadBudgets}).
 */
public final class DataPlaneHandler {

  /** Most partitions one read page may plan (a wider interval is refused). */
  public static final int MAX_PARTITIONS_PER_READ = 100_000;

  private final NamespaceRegistry registry;
  private final EventStore events;
  private final PageTokens tokens;
  private final Limits limits;
  private final WriteValidator validator;
  private final Clock clock;
  private final Optional<Indexer> indexer;
  private final WriteBuffers buffers;
  private final ReadBudgets reads;
  private final ImmutableRangeCache cache;

  /**
   * @param indexer where durably written events of namespaces with INDEX_STORAGE go; empty when the
   *     server has no index store
   * @param buffers the queues of fire-and-forget writes
   * @param cache pages of ranges that can no longer change
   * @param metrics where the reads' budgets are counted
   */
  public DataPlaneHandler(
      NamespaceRegistry registry,
      EventStore events,
      WriteBuffers buffers,
      PageTokens tokens,
      Limits limits,
      Clock clock,
      Optional<Indexer> indexer,
      ImmutableRangeCache cache,
      MeterRegistry metrics) {
    this.cache = cache;
    this.reads =
        new ReadBudgets(
            metrics,
            TimeSeriesSlos.READ,
            ReadBudgets.Meters.of("varve.timeseries.read", TimeSeriesSlos.READ));
    this.registry = registry;
    this.indexer = indexer;
    this.events = events;
    this.buffers = buffers;
    this.tokens = tokens;
    this.limits = limits;
    this.validator = new WriteValidator(limits);
    this.clock = clock;
  }

  /** A validated write request, planned against its namespace. */
  private record Planned(NamespaceEntry ns, List<Event> batch, WritePlan plan) {}

  private CompletionStage<Planned> plan(WriteEventRecordsRequest request) {
    Names.namespace("namespace", request.getNamespace());
    List<Event> batch = new ArrayList<>(request.getEventsCount());
    for (int i = 0; i < request.getEventsCount(); i++) {
      batch.add(EventMapping.toCore(request.getEvents(i), i));
    }
    validator.validate(batch);
    return registry
        .get(request.getNamespace())
        .thenApply(
            ns ->
                new Planned(
                    ns,
                    batch,
                    WritePlanner.plan(
                        ns.settings(), ns.slices(), batch, clock.instant(), limits.futureLimit())));
  }

  /**
   * WriteEventRecords: queues the request's events (those the namespace can take now) in the
   * namespace's write buffer and answers at once.
   */
  public CompletionStage<WriteEventRecordsQueuedResponse> write(WriteEventRecordsRequest request) {
    return plan(request)
        .thenApply(
            p -> {
              List<PlacedEvent> placed = new ArrayList<>();
              p.plan().partitions().values().forEach(placed::addAll);
              buffers.enqueue(p.ns(), placed);
              WriteEventRecordsResponse planned = writeResponse(p.batch(), p.plan(), Map.of());
              return WriteEventRecordsQueuedResponse.newBuilder()
                  .setQueuedCount(planned.getWrittenCount())
                  .addAllQueuedIndexes(planned.getWrittenIndexesList())
                  .addAllErrors(planned.getErrorsList())
                  .build();
            });
  }

  public CompletionStage<WriteEventRecordsResponse> writeSync(WriteEventRecordsRequest request) {
    return plan(request)
        .thenCompose(
            planned -> {
              NamespaceEntry ns = planned.ns();
              List<Event> batch = planned.batch();
              WritePlan plan = planned.plan();
              return events
                  .write(ns.settings().keyspace(), plan.partitions(), ns.settings().consistency())
                  .thenApply(
                      failures -> {
                        WriteEventRecordsResponse response = writeResponse(batch, plan, failures);
                        if (indexer.isPresent() && ns.index().isPresent()) {
                          indexer
                              .get()
                              .offer(
                                  ns.index().get(),
                                  response.getWrittenIndexesList().stream()
                                      .map(batch::get)
                                      .toList());
                        }
                        return response;
                      });
            });
  }

  /**
   * The answer to a write: the events written, and for each other one, its code and message as
   * {@link ErrorMapping} makes them, from the planner's rejection or the store's failure.
   */
  private static WriteEventRecordsResponse writeResponse(
      List<Event> batch, WritePlan plan, Map<Integer, VarveException> failures) {
    WriteEventRecordsResponse.Builder response = WriteEventRecordsResponse.newBuilder();
    boolean[] failed = new boolean[batch.size()];
    List<EventError> errors = new ArrayList<>();
    for (Rejection r : plan.rejections()) {
      failed[r.index()] = true;
      errors.add(error(r.index(), r.event(), ErrorMapping.of(r)));
    }
    // the events of one store batch share its failure: mapped (and logged, if INTERNAL) once
    Map<VarveException, ErrorMapping.Failure> mapped = new IdentityHashMap<>();
    failures.forEach(
        (index, cause) -> {
          failed[index] = true;
          Event e = batch.get(index);
          ErrorMapping.Failure failure =
              mapped
                  .computeIfAbsent(cause, ErrorMapping::of)
                  .ofEvent(
                      "events["
                          + index
                          + "] (timeSeriesId="
                          + e.timeSeriesId()
                          + ", eventId="
                          + e.eventId()
                          + ")");
          errors.add(error(index, e, failure));
        });
    errors.sort(java.util.Comparator.comparingInt(EventError::getIndex));
    for (int i = 0; i < failed.length; i++) {
      if (!failed[i]) {
        response.addWrittenIndexes(i);
      }
    }
    return response.setWrittenCount(response.getWrittenIndexesCount()).addAllErrors(errors).build();
  }

  private static EventError error(int index, Event e, ErrorMapping.Failure failure) {
    return EventError.newBuilder()
        .setIndex(index)
        .setTimeSeriesId(e.timeSeriesId())
        .setEventId(e.eventId())
        .setEventTime(EventMapping.timestamp(e.eventTimeMillis()))
        .setCode(failure.kind().name())
        .setMessage(failure.message())
        .build();
  }

  public CompletionStage<ReadEventRecordsResponse> read(ReadEventRecordsRequest request) {
    // asked while the request's context is current: the events a page keeps are held from it
    ReadBytes pageBytes = new ReadBytes(limits.maxPageBytes(), ResponseAdmission.current());
    ReadQuery query = ReadQuery.of(request, limits);
    PageTokens.Position position =
        request.getPageToken().isEmpty()
            ? null
            : tokens.decode(query.fingerprint(), request.getPageToken());
    int returned = position == null ? 0 : position.returnedSoFar();
    Cursor cursor = position == null ? null : position.cursor();
    int pageSize = query.pageSize();
    if (query.totalLimit() > 0) {
      pageSize = Math.min(pageSize, query.totalLimit() - returned);
      if (pageSize <= 0) {
        return CompletableFuture.completedFuture(ReadEventRecordsResponse.getDefaultInstance());
      }
    }
    int wanted = pageSize;
    return registry
        .get(request.getNamespace())
        .thenCompose(
            ns -> {
              Optional<ImmutableRangeCache.Key> key =
                  cache.key(ns, request, query.fromMillis(), query.toMillis(), clock.instant());
              Optional<ReadEventRecordsResponse> cached = key.flatMap(cache::get);
              if (cached.isPresent()) {
                return CompletableFuture.completedFuture(cached.get());
              }
              List<BucketScan> plan =
                  ReadPlanner.plan(
                      ns.slices(),
                      query.fromMillis(),
                      query.toMillis(),
                      cursor,
                      MAX_PARTITIONS_PER_READ);
              int eventBuckets = plan.stream().mapToInt(BucketScan::eventBuckets).max().orElse(1);
              ScanBudget budget =
                  reads.start(ns.settings().slos().latency(TimeSeriesSlos.READ), ScanBudget::of);
              CompletionStage<ScatterGather.Result> gathered =
                  ScatterGather.run(
                      events.reader(
                          ns.settings().keyspace(),
                          request.getTimeSeriesId(),
                          ns.settings().consistency(),
                          budget,
                          pageBytes),
                      plan,
                      cursor,
                      query.filters(),
                      wanted + 1,
                      ns.fanout().window(eventBuckets),
                      budget);
              return reads
                  .finish(budget, gathered, ScatterGather.Result::partial)
                  .thenApply(
                      result -> {
                        if (!result.partial()) {
                          // a page cut short says nothing of how dense the series is
                          ns.fanout().record(result.partitionsUsed());
                        }
                        ReadEventRecordsResponse page = page(result, wanted, returned, query);
                        key.ifPresent(k -> cache.put(k, page));
                        return page;
                      });
            });
  }

  private ReadEventRecordsResponse page(
      ScatterGather.Result result, int wanted, int returnedBefore, ReadQuery query) {
    List<Event> found = result.events();
    ReadEventRecordsResponse.Builder response = ReadEventRecordsResponse.newBuilder();
    int count = Math.min(found.size(), wanted);
    for (int i = 0; i < count; i++) {
      response.addEvents(EventMapping.toProto(found.get(i)));
    }
    boolean underLimit = query.totalLimit() <= 0 || returnedBefore + count < query.totalLimit();
    Cursor next = null;
    if (result.partial() && underLimit) {
      // every event of the buckets read was returned: the next page starts below them
      next = result.resume();
      response.setPartial(true);
    } else if ((found.size() > wanted || (result.full() && count > 0)) && underLimit) {
      // more events than wanted, or a page that reached timeseries.limits.maxPageBytes
      next = Cursor.after(found.get(count - 1));
    }
    if (next != null) {
      response.setNextPageToken(
          tokens.encode(
              query.fingerprint(), new PageTokens.Position(next, returnedBefore + count)));
    }
    return response.build();
  }
}
