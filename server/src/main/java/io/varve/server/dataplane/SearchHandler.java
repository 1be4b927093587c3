package io.varve.server.dataplane;

import io.micrometer.core.instrument.MeterRegistry;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.AggregationQuery;
import io.varve.api.timeseries.v1.DistinctValue;
import io.varve.api.timeseries.v1.DistinctValues;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.api.timeseries.v1.TimeBucketCount;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import io.varve.core.index.FieldType;
import io.varve.core.index.IndexSlices;
import io.varve.core.index.IndexSpec;
import io.varve.core.index.IndexStore;
import io.varve.core.index.SearchCursor;
import io.varve.core.index.SearchLimits;
import io.varve.core.index.SearchQuery;
import io.varve.core.namespace.Names;
import io.varve.core.namespace.TimeSeriesSlos;
import io.varve.core.read.PageTokens;
import io.varve.core.read.ResponseMemory;
import io.varve.core.read.ScanBudget;
import io.varve.core.slo.LatencySlo;
import io.varve.core.store.EventStore;
import io.varve.server.admission.ResponseAdmission;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import io.varve.server.request.ReadBudgets;
import io.varve.server.request.RequestTimes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;

/**
 * SearchEventRecords and AggregateEventRecords: validates a request against the namespace's
 * INDEX_STORAGE, runs it on the index store over the index slices of its interval (closed slices
 * left out), and in REVERSE_INDEX mode reads the full events back from the primary store ({@link
 * SearchReads}). Both honour the namespace's latency max and the caller's deadline ({@link
 * ReadBudgets}): a search page stops early, {@code partial}, an aggregation fails
 * DEADLINE_EXCEEDED.
 */
public final class SearchHandler {

  private static final byte SEARCH_TOKEN = 2;
  private static final byte DISTINCT_TOKEN = 3;

  private final NamespaceRegistry registry;
  private final Optional<IndexStore> index;
  private final PageTokens tokens;
  private final SearchLimits limits;
  private final Clock clock;
  private final SearchReads reads;
  private final ReadBudgets searches;
  private final ReadBudgets aggregates;

  /**
   * @param metrics where the calls' budgets are counted
   */
  public SearchHandler(
      NamespaceRegistry registry,
      Optional<IndexStore> index,
      EventStore events,
      PageTokens tokens,
      SearchLimits limits,
      Clock clock,
      MeterRegistry metrics) {
    this.registry = registry;
    this.index = index;
    this.reads = new SearchReads(events);
    this.searches = budgets(metrics, "search", TimeSeriesSlos.SEARCH);
    this.aggregates = budgets(metrics, "aggregate", TimeSeriesSlos.AGGREGATE);
    this.tokens = tokens;
    this.limits = limits;
    this.clock = clock;
  }

  /** The namespace's index settings and the store; FAILED_PRECONDITION when either is missing. */
  /** The budgets of one TimeSeries read endpoint, counted as {@code varve.timeseries.<name>.*}. */
  private static ReadBudgets budgets(MeterRegistry metrics, String name, String rpc) {
    return new ReadBudgets(metrics, rpc, ReadBudgets.Meters.of("varve.timeseries." + name, rpc));
  }

  private CompletionStage<Target> target(String namespace) {
    return registry
        .get(namespace)
        .thenApply(
            ns -> {
              IndexSpec spec =
                  ns.index()
                      .orElseThrow(
                          () ->
                              VarveException.failedPrecondition(
                                  "namespace '"
                                      + namespace
                                      + "' has no INDEX_STORAGE entry, so it cannot be searched (add one with UpdateNamespace, then backfill)"));
              IndexStore store =
                  index.orElseThrow(
                      () ->
                          VarveException.failedPrecondition(
                              "this server has no index store"
                                  + " configured (opensearch.urls), so namespace '"
                                  + namespace
                                  + "' cannot be searched"));
              return new Target(ns, spec, store);
            });
  }

  private record Target(NamespaceEntry ns, IndexSpec spec, IndexStore store) {}

  private long[] interval(boolean present, io.varve.api.timeseries.v1.TimeInterval interval) {
    long[] range = RequestTimes.interval(present, interval);
    if (range[1] - range[0] > limits.maxInterval().toMillis()) {
      throw InvalidFieldException.of(
          "timeInterval",
          Duration.ofMillis(range[1] - range[0]).toSeconds()
              + "s wide (expected: at most "
              + limits.maxInterval().toSeconds()
              + "s)");
    }
    return range;
  }

  /** The open index slices that may hold events of [from, to). */
  private List<String> indices(IndexSpec spec, long from, long to) {
    Instant now = clock.instant();
    return IndexSlices.covering(spec, from, to).stream()
        .filter(name -> !IndexSlices.closed(spec, IndexSlices.startOf(spec, name).getAsLong(), now))
        .toList();
  }

  public CompletionStage<SearchEventRecordsResponse> search(SearchEventRecordsRequest r) {
    // asked while the request's context is current: the events read back are held from it
    ResponseMemory memory = ResponseAdmission.current();
    Names.namespace("namespace", r.getNamespace());
    SearchQueries.checkDepth(r.hasSearchQuery(), r.getSearchQuery(), limits.maxDepth());
    long[] range = interval(r.hasTimeInterval(), r.getTimeInterval());
    int pageSize =
        EventMapping.pageSize(
            "pageSize",
            r.hasPageSize(),
            r.getPageSize(),
            limits.defaultPageSize(),
            limits.maxPageSize());
    int total = EventMapping.totalRecordLimit(r.hasTotalRecordLimit(), r.getTotalRecordLimit());
    byte[] fingerprint =
        PageTokens.fingerprint(
            "search",
            r.getNamespace(),
            Long.toString(range[0]),
            Long.toString(range[1]),
            Integer.toString(total),
            Base64.getEncoder().encodeToString(r.getSearchQuery().toByteArray()));
    return target(r.getNamespace())
        .thenCompose(
            t -> {
              SearchQuery query =
                  SearchQueries.of(r.hasSearchQuery(), r.getSearchQuery(), t.spec(), limits);
              Optional<SearchCursor> after = Optional.empty();
              int returned = 0;
              if (!r.getPageToken().isEmpty()) {
                ByteBuffer body =
                    ByteBuffer.wrap(tokens.open(fingerprint, SEARCH_TOKEN, r.getPageToken()));
                returned = body.getInt();
                after = Optional.of(new SearchCursor(body.getLong(), string(body), string(body)));
              }
              int wanted = total > 0 ? Math.min(pageSize, total - returned) : pageSize;
              if (wanted <= 0) {
                return CompletableFuture.completedFuture(
                    SearchEventRecordsResponse.getDefaultInstance());
              }
              int returnedBefore = returned;
              IndexStore.Search search =
                  new IndexStore.Search(
                      t.spec(),
                      indices(t.spec(), range[0], range[1]),
                      range[0],
                      range[1],
                      query,
                      after,
                      wanted + 1);
              if (search.indices().isEmpty()) {
                return CompletableFuture.completedFuture(
                    SearchEventRecordsResponse.getDefaultInstance());
              }
              ScanBudget budget =
                  searches.start(
                      t.ns().settings().slos().latency(TimeSeriesSlos.SEARCH), ScanBudget::of);
              CompletionStage<SearchEventRecordsResponse> page =
                  budget
                      .track(t.store().search(search))
                      .thenCompose(
                          hits -> {
                            List<IndexStore.Hit> wantedHits =
                                hits.subList(0, Math.min(wanted, hits.size()));
                            return reads
                                .read(t.ns(), wantedHits, budget, memory)
                                .thenApply(
                                    read ->
                                        searchPage(
                                            fingerprint,
                                            wantedHits,
                                            read,
                                            hits.size() > wanted,
                                            returnedBefore,
                                            total));
                          });
              return searches.finish(budget, page, SearchEventRecordsResponse::getPartial);
            });
  }

  /**
   * A page of the events read back for {@code hits}; partial when the budget cut the reads short,
   * its token then continuing after the last hit read.
   */
  private SearchEventRecordsResponse searchPage(
      byte[] fingerprint,
      List<IndexStore.Hit> hits,
      SearchReads.Read read,
      boolean moreHits,
      int returnedBefore,
      int total) {
    SearchEventRecordsResponse.Builder response = SearchEventRecordsResponse.newBuilder();
    read.events().forEach(e -> response.addEvents(EventMapping.toProto(e)));
    int returned = returnedBefore + read.hitsRead();
    boolean partial = read.hitsRead() < hits.size();
    boolean underLimit = total == 0 || returned < total;
    if ((partial || moreHits) && underLimit) {
      response
          .setNextPageToken(searchToken(fingerprint, returned, hits.get(read.hitsRead() - 1)))
          .setPartial(partial);
    }
    return response.build();
  }

  private String searchToken(byte[] fingerprint, int returned, IndexStore.Hit last) {
    byte[] id = last.eventId().getBytes(StandardCharsets.UTF_8);
    byte[] series = last.timeSeriesId().getBytes(StandardCharsets.UTF_8);
    ByteBuffer body = ByteBuffer.allocate(4 + 8 + 4 + id.length + 4 + series.length);
    body.putInt(returned)
        .putLong(last.eventTimeMillis())
        .putInt(id.length)
        .put(id)
        .putInt(series.length)
        .put(series);
    return tokens.seal(fingerprint, SEARCH_TOKEN, body.array());
  }

  private static String string(ByteBuffer body) {
    int length = body.getInt();
    if (length < 0 || length > body.remaining()) {
      throw InvalidFieldException.of(
          "pageToken", "malformed (expected: a nextPageToken returned for this same request)");
    }
    byte[] bytes = new byte[length];
    body.get(bytes);
    return new String(bytes, StandardCharsets.UTF_8);
  }

  public CompletionStage<AggregateEventRecordsResponse> aggregate(AggregateEventRecordsRequest r) {
    Names.namespace("namespace", r.getNamespace());
    SearchQueries.checkDepth(r.hasSearchQuery(), r.getSearchQuery(), limits.maxDepth());
    long[] range = interval(r.hasTimeInterval(), r.getTimeInterval());
    AggregationQuery aq = r.getAggregationQuery();
    if (!aq.hasDistinct() && !aq.hasCount() && !aq.hasCountByTime()) {
      throw InvalidFieldException.of(
          "aggregationQuery",
          "missing or empty (expected: at least one of distinct," + " count, countByTime)");
    }
    Optional<Duration> bucketWidth = bucketWidth(aq, range);
    int distinctSize =
        !aq.hasDistinct()
            ? 0
            : EventMapping.pageSize(
                "aggregationQuery.distinct.pageSize",
                aq.getDistinct().hasPageSize(),
                aq.getDistinct().getPageSize(),
                limits.defaultPageSize(),
                limits.maxPageSize());
    byte[] fingerprint =
        PageTokens.fingerprint(
            "distinct",
            r.getNamespace(),
            Long.toString(range[0]),
            Long.toString(range[1]),
            Base64.getEncoder().encodeToString(r.getSearchQuery().toByteArray()),
            aq.getDistinct().getEventItemKey());
    return target(r.getNamespace())
        .thenCompose(
            t -> {
              SearchQuery query =
                  SearchQueries.of(r.hasSearchQuery(), r.getSearchQuery(), t.spec(), limits);
              Optional<String> field = distinctField(aq, t.spec());
              Optional<Object> after =
                  field.isEmpty() || aq.getDistinct().getPageToken().isEmpty()
                      ? Optional.empty()
                      : Optional.of(
                          afterValue(
                              tokens.open(
                                  fingerprint,
                                  DISTINCT_TOKEN,
                                  aq.getDistinct().getPageToken(),
                                  "aggregationQuery.distinct.pageToken")));
              IndexStore.Search search =
                  new IndexStore.Search(
                      t.spec(),
                      indices(t.spec(), range[0], range[1]),
                      range[0],
                      range[1],
                      query,
                      Optional.empty(),
                      0);
              IndexStore.Aggregation aggregation =
                  new IndexStore.Aggregation(
                      field, after, distinctSize, aq.hasCount(), bucketWidth);
              if (search.indices().isEmpty()) {
                return CompletableFuture.completedFuture(
                    AggregateEventRecordsResponse.getDefaultInstance());
              }
              LatencySlo slo = t.ns().settings().slos().latency(TimeSeriesSlos.AGGREGATE);
              ScanBudget budget = aggregates.start(slo, ScanBudget::of);
              CompletionStage<IndexStore.Aggregates> result =
                  stopped(budget, slo, t.store().aggregate(search, aggregation));
              CompletionStage<AggregateEventRecordsResponse> answer =
                  result.thenApply(a -> aggregateResponse(a, aq, t.spec(), field, fingerprint));
              return aggregates.finish(budget, answer, a -> false);
            });
  }

  /** {@code countByTime}'s bucket width: whole milliseconds, at most maxTimeBuckets buckets. */
  private Optional<Duration> bucketWidth(AggregationQuery aq, long[] range) {
    if (!aq.hasCountByTime()) {
      return Optional.empty();
    }
    Duration d =
        RequestTimes.duration(
            aq.getCountByTime().getBucketWidth(), "aggregationQuery.countByTime.bucketWidth");
    if (d.toMillis() < 1 || d.getNano() % 1_000_000 != 0) {
      throw InvalidFieldException.of(
          "aggregationQuery.countByTime.bucketWidth",
          (aq.getCountByTime().hasBucketWidth() ? d.toString() : "missing")
              + " (expected: a positive whole number of milliseconds, e.g. \"3600s\")");
    }
    if ((range[1] - range[0]) / d.toMillis() > limits.maxTimeBuckets()) {
      throw InvalidFieldException.of(
          "aggregationQuery.countByTime.bucketWidth",
          d.toSeconds()
              + "s makes more than "
              + limits.maxTimeBuckets()
              + " buckets over the interval (expected: a wider bucket)");
    }
    return Optional.of(d);
  }

  /**
   * The indexed field of {@code distinct}, when asked: a known item key of a type whose values are
   * whole (not TEXT, which is analyzed into words).
   */
  private static Optional<String> distinctField(AggregationQuery aq, IndexSpec spec) {
    if (!aq.hasDistinct()) {
      return Optional.empty();
    }
    String path = "aggregationQuery.distinct.eventItemKey";
    if (aq.getDistinct().getEventItemKey().isEmpty()) {
      throw InvalidFieldException.of(path, "missing (expected: an indexed item key as text)");
    }
    String key = SearchQueries.known(aq.getDistinct().getEventItemKey(), spec, path);
    if (spec.fields().get(key) == FieldType.TEXT) {
      throw InvalidFieldException.of(
          path,
          "'"
              + key
              + "' is a TEXT field (expected: a field of type KEYWORD,"
              + " INTEGER, LONG, DOUBLE, BOOLEAN or TIMESTAMP; TEXT values are analyzed into words)");
    }
    return Optional.of(key);
  }

  /** The index store's aggregates as the API answers them, with the next distinct page's token. */
  private AggregateEventRecordsResponse aggregateResponse(
      IndexStore.Aggregates a,
      AggregationQuery aq,
      IndexSpec spec,
      Optional<String> distinctField,
      byte[] fingerprint) {
    AggregateEventRecordsResponse.Builder response = AggregateEventRecordsResponse.newBuilder();
    if (distinctField.isPresent()) {
      FieldType type = spec.fields().get(distinctField.get());
      DistinctValues.Builder values = DistinctValues.newBuilder();
      for (IndexStore.ValueCount v : a.distinct()) {
        values.addValues(
            DistinctValue.newBuilder()
                .setEventItemValue(
                    com.google.protobuf.ByteString.copyFromUtf8(render(type, v.value())))
                .setCount(v.count()));
      }
      if (a.moreDistinct()) {
        values.setNextPageToken(
            tokens.seal(
                fingerprint,
                DISTINCT_TOKEN,
                afterBytes(a.distinct().get(a.distinct().size() - 1).value())));
      }
      response.setDistinct(values);
    }
    if (aq.hasCount()) {
      response.setCount(a.count());
    }
    for (IndexStore.BucketCount b : a.buckets()) {
      response.addCountByTime(
          TimeBucketCount.newBuilder()
              .setStart(EventMapping.timestamp(b.startMillis()))
              .setCount(b.count()));
    }
    return response.build();
  }

  /**
   * {@code call}, abandoned at the budget's deadline with DEADLINE_EXCEEDED: an aggregation has no
   * partial answer.
   */
  private static <T> CompletionStage<T> stopped(
      ScanBudget budget, LatencySlo slo, CompletionStage<T> call) {
    CompletionStage<T> tracked = budget.track(call);
    budget.whenExpired(budget::stop);
    return tracked.handle(
        (value, error) -> {
          if (error == null) {
            return value;
          }
          if (budget.expired() && !budget.cancelled()) {
            throw new VarveException(
                VarveException.Kind.DEADLINE_EXCEEDED,
                TimeSeriesSlos.AGGREGATE
                    + " stopped at its deadline: the namespace's latency max of "
                    + LatencySlo.shown(slo.max())
                    + " or the caller's deadline, whichever came first (narrow the interval"
                    + " or the query, or raise slos.AggregateEventRecords.latency.max)");
          }
          throw error instanceof RuntimeException r ? r : new CompletionException(error);
        });
  }

  /** A distinct value as the index store returns it, in the field's canonical text. */
  static String render(FieldType type, Object value) {
    return switch (type) {
      case BOOLEAN ->
          value instanceof Boolean b
              ? b.toString()
              : Boolean.toString(
                  value instanceof Number n ? n.longValue() != 0 : "true".equals(value));
      case TIMESTAMP -> type.render(((Number) value).longValue());
      case INTEGER, LONG -> Long.toString(((Number) value).longValue());
      default -> value.toString();
    };
  }

  private static byte[] afterBytes(Object value) {
    char tag =
        value instanceof String
            ? 's'
            : value instanceof Boolean ? 'b' : value instanceof Double ? 'd' : 'l';
    return (tag + value.toString()).getBytes(StandardCharsets.UTF_8);
  }

  private static Object afterValue(byte[] bytes) {
    String text = new String(bytes, StandardCharsets.UTF_8);
    String rest = text.substring(1);
    return switch (text.charAt(0)) {
      case 's' -> rest;
      case 'b' -> Boolean.parseBoolean(rest);
      case 'd' -> Double.parseDouble(rest);
      default -> Long.parseLong(rest);
    };
  }
}
