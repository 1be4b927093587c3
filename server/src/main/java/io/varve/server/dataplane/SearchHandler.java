package io.varve.server.dataplane;

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
import io.varve.core.event.Event;
import io.varve.core.index.FieldType;
import io.varve.core.index.IndexSlices;
import io.varve.core.index.IndexSpec;
import io.varve.core.index.IndexStore;
import io.varve.core.index.SearchCursor;
import io.varve.core.index.SearchLimits;
import io.varve.core.index.SearchQuery;
import io.varve.core.namespace.Names;
import io.varve.core.partitioning.EventBuckets;
import io.varve.core.read.BucketScan;
import io.varve.core.read.PageTokens;
import io.varve.core.read.PartitionScan;
import io.varve.core.read.ReadPlanner;
import io.varve.core.store.EventStore;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import io.varve.server.request.RequestTimes;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * SearchEventRecords and AggregateEventRecords: validates a request against the namespace's
 * INDEX_STORAGE, runs it on the index store over the index slices of its interval (closed slices
 * left out), and in REVERSE_INDEX mode reads the full events back from the primary store (an event
 * the primary store no longer holds, e.g. dropped by its retention, is left out).
 */
public final class SearchHandler {

  private static final byte SEARCH_TOKEN = 2;
  private static final byte DISTINCT_TOKEN = 3;

  private final NamespaceRegistry registry;
  private final Optional<IndexStore> index;
  private final EventStore events;
  private final PageTokens tokens;
  private final SearchLimits limits;
  private final Clock clock;

  public SearchHandler(
      NamespaceRegistry registry,
      Optional<IndexStore> index,
      EventStore events,
      PageTokens tokens,
      SearchLimits limits,
      Clock clock) {
    this.registry = registry;
    this.index = index;
    this.events = events;
    this.tokens = tokens;
    this.limits = limits;
    this.clock = clock;
  }

  /** The namespace's index settings and the store; FAILED_PRECONDITION when either is missing. */
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
              return t.store()
                  .search(search)
                  .thenCompose(
                      hits -> {
                        List<IndexStore.Hit> page = hits.subList(0, Math.min(wanted, hits.size()));
                        boolean more =
                            hits.size() > wanted
                                && (total == 0 || returnedBefore + page.size() < total);
                        return events(t.ns(), page)
                            .thenApply(
                                found -> {
                                  SearchEventRecordsResponse.Builder response =
                                      SearchEventRecordsResponse.newBuilder();
                                  found.forEach(e -> response.addEvents(EventMapping.toProto(e)));
                                  if (more) {
                                    IndexStore.Hit last = page.get(page.size() - 1);
                                    response.setNextPageToken(
                                        searchToken(
                                            fingerprint, returnedBefore + page.size(), last));
                                  }
                                  return response.build();
                                });
                      });
            });
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

  /** The full events of hits, in hit order: from the index (FULL_EVENT) or the primary store. */
  private CompletionStage<List<Event>> events(NamespaceEntry ns, List<IndexStore.Hit> hits) {
    List<CompletableFuture<Optional<Event>>> reads = new ArrayList<>();
    for (IndexStore.Hit hit : hits) {
      reads.add(
          hit.items().isPresent()
              ? CompletableFuture.completedFuture(
                  Optional.of(
                      new Event(
                          hit.timeSeriesId(),
                          hit.eventTimeMillis(),
                          hit.eventId(),
                          hit.items().get())))
              : primary(ns, hit).toCompletableFuture());
    }
    return CompletableFuture.allOf(reads.toArray(CompletableFuture[]::new))
        .thenApply(
            v -> reads.stream().map(CompletableFuture::join).flatMap(Optional::stream).toList());
  }

  private CompletionStage<Optional<Event>> primary(NamespaceEntry ns, IndexStore.Hit hit) {
    long time = hit.eventTimeMillis();
    List<BucketScan> plan = ReadPlanner.plan(ns.slices(), time, time + 1, null, 64);
    if (plan.isEmpty()) {
      return CompletableFuture.completedFuture(Optional.empty());
    }
    BucketScan bucket = plan.get(0);
    int eventBucket =
        EventBuckets.of(hit.timeSeriesId(), time, hit.eventId(), bucket.eventBuckets());
    return events
        .reader(ns.settings().keyspace(), hit.timeSeriesId(), ns.settings().consistency())
        .read(new PartitionScan(bucket, eventBucket), null, List.of(), 1000)
        .thenApply(
            found -> found.stream().filter(e -> e.eventId().equals(hit.eventId())).findFirst());
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
    Optional<Duration> width = Optional.empty();
    if (aq.hasCountByTime()) {
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
      width = Optional.of(d);
    }
    int distinctSize =
        !aq.hasDistinct()
            ? 0
            : EventMapping.pageSize(
                "aggregationQuery.distinct.pageSize",
                aq.getDistinct().hasPageSize(),
                aq.getDistinct().getPageSize(),
                limits.defaultPageSize(),
                limits.maxPageSize());
    Optional<Duration> bucketWidth = width;
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
              Optional<String> field = Optional.empty();
              Optional<Object> after = Optional.empty();
              if (aq.hasDistinct()) {
                String path = "aggregationQuery.distinct.eventItemKey";
                if (aq.getDistinct().getEventItemKey().isEmpty()) {
                  throw InvalidFieldException.of(
                      path, "missing (expected: an indexed item key as text)");
                }
                String key =
                    SearchQueries.known(aq.getDistinct().getEventItemKey(), t.spec(), path);
                if (t.spec().fields().get(key) == FieldType.TEXT) {
                  throw InvalidFieldException.of(
                      path,
                      "'"
                          + key
                          + "' is a TEXT field (expected: a field of type KEYWORD,"
                          + " INTEGER, LONG, DOUBLE, BOOLEAN or TIMESTAMP; TEXT values are analyzed into words)");
                }
                field = Optional.of(key);
                if (!aq.getDistinct().getPageToken().isEmpty()) {
                  after =
                      Optional.of(
                          afterValue(
                              tokens.open(
                                  fingerprint,
                                  DISTINCT_TOKEN,
                                  aq.getDistinct().getPageToken(),
                                  "aggregationQuery.distinct.pageToken")));
                }
              }
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
              CompletionStage<IndexStore.Aggregates> result =
                  search.indices().isEmpty()
                      ? CompletableFuture.completedFuture(
                          new IndexStore.Aggregates(List.of(), false, 0, List.of()))
                      : t.store().aggregate(search, aggregation);
              Optional<String> distinctField = field;
              return result.thenApply(
                  a -> {
                    AggregateEventRecordsResponse.Builder response =
                        AggregateEventRecordsResponse.newBuilder();
                    if (distinctField.isPresent()) {
                      FieldType type = t.spec().fields().get(distinctField.get());
                      DistinctValues.Builder values = DistinctValues.newBuilder();
                      for (IndexStore.ValueCount v : a.distinct()) {
                        values.addValues(
                            DistinctValue.newBuilder()
                                .setEventItemValue(
                                    com.google.protobuf.ByteString.copyFromUtf8(
                                        render(type, v.value())))
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
                  });
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
