package io.varve.opensearch;

import io.varve.core.error.Causes;
import io.varve.core.event.EventItem;
import io.varve.core.index.FieldType;
import io.varve.core.index.IndexDocument;
import io.varve.core.index.IndexSpec;
import io.varve.core.index.IndexStore;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import org.opensearch.client.opensearch.OpenSearchAsyncClient;
import org.opensearch.client.opensearch._types.FieldValue;
import org.opensearch.client.opensearch._types.OpenSearchException;
import org.opensearch.client.opensearch._types.SortOrder;
import org.opensearch.client.opensearch._types.Time;
import org.opensearch.client.opensearch._types.aggregations.Aggregate;
import org.opensearch.client.opensearch._types.aggregations.CompositeAggregate;
import org.opensearch.client.opensearch._types.aggregations.CompositeAggregationSource;
import org.opensearch.client.opensearch._types.aggregations.CompositeBucket;
import org.opensearch.client.opensearch._types.aggregations.DateHistogramBucket;
import org.opensearch.client.opensearch._types.mapping.DynamicMapping;
import org.opensearch.client.opensearch._types.mapping.Property;
import org.opensearch.client.opensearch.core.BulkRequest;
import org.opensearch.client.opensearch.core.SearchRequest;
import org.opensearch.client.opensearch.core.SearchResponse;
import org.opensearch.client.opensearch.core.bulk.BulkResponseItem;

/**
 * The index store on OpenSearch (or an Elasticsearch 7.10-compatible endpoint).
 *
 * <p>Document layout: {@code ts} (time series id, keyword), {@code t} (event time, epoch
 * milliseconds), {@code id} (event id, keyword), one field {@code f_<hex of the item key's UTF-8>}
 * per mapped item (item keys are free text, so they are never used as field names), and in
 * FULL_EVENT mode {@code items}, an unindexed list of {@code {k, v}} in base64. Mappings are {@code
 * dynamic: false}: nothing but these fields is ever mapped.
 *
 * <p>Every stage a method returns fails only with a {@link io.varve.core.error.VarveException}: the
 * client's failures are classified by {@link OpenSearchFailures}.
 */
public final class OpenSearchIndexStore implements IndexStore, AutoCloseable {

  static final String SERIES = "ts";
  static final String TIME = "t";
  static final String EVENT_ID = "id";
  static final String ITEMS = "items";

  private final OpenSearchAsyncClient client;

  /** Index -> fields known to be mapped in it. */
  private final Map<String, Set<String>> prepared = new ConcurrentHashMap<>();

  public OpenSearchIndexStore(OpenSearchAsyncClient client) {
    this.client = client;
  }

  /** The document field holding an item key's values. */
  static String field(String itemKey) {
    return "f_" + HexFormat.of().formatHex(itemKey.getBytes(StandardCharsets.UTF_8));
  }

  @Override
  public CompletionStage<Void> prepare(String index, IndexSpec spec) {
    Set<String> known = prepared.get(index);
    if (known != null && known.containsAll(spec.fields().keySet())) {
      return CompletableFuture.completedFuture(null);
    }
    Map<String, Property> properties = properties(spec);
    CompletionStage<Void> done;
    if (known == null) {
      done =
          call(() ->
                  client
                      .indices()
                      .create(
                          c ->
                              c.index(index)
                                  .mappings(
                                      m -> m.dynamic(DynamicMapping.False).properties(properties))
                                  .settings(
                                      s ->
                                          s.refreshInterval(
                                              Time.of(
                                                  t ->
                                                      t.time(
                                                          spec.refreshInterval().toMillis()
                                                              + "ms"))))))
              .<Void>thenApply(r -> null)
              .exceptionallyCompose(
                  e ->
                      isType(e, "resource_already_exists_exception")
                          ? putMapping(index, properties)
                          : CompletableFuture.failedFuture(e));
    } else {
      done = putMapping(index, properties);
    }
    return OpenSearchFailures.translated(
        done.thenRun(() -> prepared.put(index, Set.copyOf(spec.fields().keySet()))));
  }

  private CompletionStage<Void> putMapping(String index, Map<String, Property> properties) {
    return call(() -> client.indices().putMapping(p -> p.index(index).properties(properties)))
        .thenApply(r -> null);
  }

  private static Map<String, Property> properties(IndexSpec spec) {
    Map<String, Property> properties = new LinkedHashMap<>();
    properties.put(SERIES, Property.of(p -> p.keyword(k -> k)));
    properties.put(TIME, Property.of(p -> p.date(d -> d.format("epoch_millis"))));
    properties.put(EVENT_ID, Property.of(p -> p.keyword(k -> k)));
    properties.put(ITEMS, Property.of(p -> p.object(o -> o.enabled(false))));
    spec.fields().forEach((key, type) -> properties.put(field(key), property(type)));
    return properties;
  }

  private static Property property(FieldType type) {
    return switch (type) {
      case KEYWORD -> Property.of(p -> p.keyword(k -> k));
      case TEXT -> Property.of(p -> p.text(t -> t));
      case INTEGER -> Property.of(p -> p.integer(i -> i));
      case LONG -> Property.of(p -> p.long_(l -> l));
      case DOUBLE -> Property.of(p -> p.double_(d -> d));
      case BOOLEAN -> Property.of(p -> p.boolean_(b -> b));
      case TIMESTAMP -> Property.of(p -> p.date(d -> d.format("epoch_millis")));
    };
  }

  @Override
  public CompletionStage<BulkOutcome> bulk(List<IndexDocument> documents, IndexSpec spec) {
    if (documents.isEmpty()) {
      return CompletableFuture.completedFuture(new BulkOutcome(0, List.of(), false));
    }
    BulkRequest.Builder request = new BulkRequest.Builder();
    for (IndexDocument d : documents) {
      Map<String, Object> source = source(d);
      request.operations(op -> op.index(i -> i.index(d.index()).id(d.id()).document(source)));
    }
    return OpenSearchFailures.translated(
        call(() -> client.bulk(request.build()))
            .thenApply(
                response -> {
                  List<String> failures = new ArrayList<>();
                  boolean retryable = false;
                  for (BulkResponseItem item : response.items()) {
                    if (item.error() != null) {
                      failures.add(
                          item.index()
                              + "/"
                              + item.id()
                              + ": "
                              + item.error().type()
                              + ": "
                              + item.error().reason());
                      retryable |= item.status() == 429 || item.status() >= 500;
                    }
                  }
                  return new BulkOutcome(documents.size() - failures.size(), failures, retryable);
                }));
  }

  private static Map<String, Object> source(IndexDocument d) {
    Map<String, Object> source = new LinkedHashMap<>();
    source.put(SERIES, d.timeSeriesId());
    source.put(TIME, d.eventTimeMillis());
    source.put(EVENT_ID, d.eventId());
    d.fields().forEach((key, value) -> source.put(field(key), value));
    if (!d.items().isEmpty()) {
      Base64.Encoder b64 = Base64.getEncoder();
      source.put(
          ITEMS,
          d.items().stream()
              .map(
                  i -> Map.of("k", b64.encodeToString(i.key()), "v", b64.encodeToString(i.value())))
              .toList());
    }
    return source;
  }

  @Override
  public CompletionStage<List<Hit>> search(Search search) {
    List<String> includes = new ArrayList<>(List.of(SERIES, TIME, EVENT_ID));
    if (search.spec().mode() == io.varve.core.index.DocumentMode.FULL_EVENT) {
      includes.add(ITEMS);
    }
    SearchRequest.Builder request =
        new SearchRequest.Builder()
            .index(IndexNames.compact(search.indices(), IndexNames.MAX_CHARS))
            .ignoreUnavailable(true)
            .allowNoIndices(true)
            .query(OpenSearchQueries.filtered(search))
            .size(search.size())
            .trackTotalHits(t -> t.enabled(false))
            .sort(
                OpenSearchQueries.sort(TIME, SortOrder.Desc),
                OpenSearchQueries.sort(EVENT_ID, SortOrder.Asc),
                OpenSearchQueries.sort(SERIES, SortOrder.Asc))
            .source(s -> s.filter(f -> f.includes(includes)));
    search
        .after()
        .ifPresent(
            c ->
                request.searchAfter(
                    FieldValue.of(c.eventTimeMillis()),
                    FieldValue.of(c.eventId()),
                    FieldValue.of(c.timeSeriesId())));
    SearchRequest built = request.build();
    return OpenSearchFailures.translated(
        searchCall(() -> client.search(built, Map.class), 3).thenApply(OpenSearchIndexStore::hits));
  }

  @SuppressWarnings("rawtypes")
  private static List<Hit> hits(SearchResponse<Map> response) {
    List<Hit> hits = new ArrayList<>();
    for (org.opensearch.client.opensearch.core.search.Hit<Map> hit : response.hits().hits()) {
      Map source = hit.source();
      Optional<List<EventItem>> items =
          Optional.ofNullable((List<?>) source.get(ITEMS))
              .map(
                  list ->
                      list.stream()
                          .map(o -> (Map<?, ?>) o)
                          .map(
                              m ->
                                  new EventItem(
                                      Base64.getDecoder().decode((String) m.get("k")),
                                      Base64.getDecoder().decode((String) m.get("v"))))
                          .toList());
      hits.add(
          new Hit(
              (String) source.get(SERIES),
              ((Number) source.get(TIME)).longValue(),
              (String) source.get(EVENT_ID),
              items));
    }
    return hits;
  }

  @Override
  public CompletionStage<Aggregates> aggregate(Search search, IndexStore.Aggregation aggregation) {
    SearchRequest.Builder request =
        new SearchRequest.Builder()
            .index(IndexNames.compact(search.indices(), IndexNames.MAX_CHARS))
            .ignoreUnavailable(true)
            .allowNoIndices(true)
            .query(OpenSearchQueries.filtered(search))
            .size(0)
            .trackTotalHits(t -> t.enabled(aggregation.count()));
    aggregation
        .distinctField()
        .ifPresent(
            key ->
                request.aggregations(
                    "distinct",
                    org.opensearch.client.opensearch._types.aggregations.Aggregation.of(
                        a ->
                            a.composite(
                                c -> {
                                  c.size(aggregation.distinctSize() + 1)
                                      .sources(
                                          Map.of(
                                              "v",
                                              CompositeAggregationSource.of(
                                                  s -> s.terms(t -> t.field(field(key))))));
                                  aggregation
                                      .distinctAfter()
                                      .ifPresent(
                                          after -> c.after("v", OpenSearchQueries.value(after)));
                                  return c;
                                }))));
    aggregation
        .bucketWidth()
        .ifPresent(
            width ->
                request.aggregations(
                    "byTime",
                    org.opensearch.client.opensearch._types.aggregations.Aggregation.of(
                        a ->
                            a.dateHistogram(
                                d ->
                                    d.field(TIME)
                                        .fixedInterval(
                                            Time.of(t -> t.time(width.toMillis() + "ms")))
                                        .minDocCount(1)))));
    SearchRequest built = request.build();
    return OpenSearchFailures.translated(
        searchCall(() -> client.search(built, Void.class), 3)
            .thenApply(
                response -> {
                  List<ValueCount> values = new ArrayList<>();
                  boolean more = false;
                  Aggregate distinct = response.aggregations().get("distinct");
                  if (distinct != null) {
                    CompositeAggregate composite = distinct.composite();
                    for (CompositeBucket bucket : composite.buckets().array()) {
                      if (values.size() == aggregation.distinctSize()) {
                        more = true;
                        break;
                      }
                      values.add(new ValueCount(plain(bucket.key().get("v")), bucket.docCount()));
                    }
                  }
                  List<BucketCount> buckets = new ArrayList<>();
                  Aggregate byTime = response.aggregations().get("byTime");
                  if (byTime != null) {
                    for (DateHistogramBucket bucket : byTime.dateHistogram().buckets().array()) {
                      buckets.add(new BucketCount(bucket.key(), bucket.docCount()));
                    }
                  }
                  long count =
                      aggregation.count() && response.hits().total() != null
                          ? response.hits().total().value()
                          : 0;
                  return new Aggregates(values, more, count, buckets);
                }));
  }

  private static Object plain(FieldValue value) {
    if (value.isString()) {
      return value.stringValue();
    }
    if (value.isLong()) {
      return value.longValue();
    }
    if (value.isDouble()) {
      return value.doubleValue();
    }
    if (value.isBoolean()) {
      return value.booleanValue();
    }
    return value._get().toString();
  }

  @Override
  public CompletionStage<List<String>> indices(String prefix) {
    return OpenSearchFailures.translated(
        call(() ->
                client
                    .indices()
                    .get(g -> g.index(prefix + "*").ignoreUnavailable(true).allowNoIndices(true)))
            .thenApply(
                r ->
                    r.result().keySet().stream()
                        .filter(n -> n.startsWith(prefix))
                        .sorted()
                        .toList()));
  }

  @Override
  public CompletionStage<Void> delete(List<String> indices) {
    if (indices.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    CompletionStage<Void> done = CompletableFuture.completedFuture(null);
    for (List<String> batch : IndexNames.batches(indices, IndexNames.MAX_CHARS)) {
      done =
          done.thenCompose(
              v ->
                  call(() -> client.indices().delete(d -> d.index(batch).ignoreUnavailable(true)))
                      .thenRun(() -> batch.forEach(prepared::remove)));
    }
    return OpenSearchFailures.translated(done);
  }

  @Override
  public CompletionStage<Void> refresh(List<String> indices) {
    if (indices.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    List<String> named = IndexNames.compact(indices, IndexNames.MAX_CHARS);
    return OpenSearchFailures.translated(
        call(() ->
                client
                    .indices()
                    .refresh(r -> r.index(named).ignoreUnavailable(true).allowNoIndices(true)))
            .thenApply(r -> null));
  }

  @Override
  public void close() throws IOException {
    client._transport().close();
  }

  private static boolean isType(Throwable e, String type) {
    Throwable cause = Causes.unwrap(e);
    return cause instanceof OpenSearchException ose
        && ose.error() != null
        && type.equals(ose.error().type());
  }

  /**
   * A search, tried again (up to {@code attempts} times, 250 ms apart) when it failed because the
   * shards of an index were not started yet: an index slice being created as the search arrives.
   */
  private static <T> CompletionStage<T> searchCall(IoCall<T> search, int attempts) {
    return call(search)
        .exceptionallyCompose(
            error -> {
              Throwable cause = Causes.unwrap(error);
              boolean starting =
                  cause instanceof OpenSearchException ose && ose.status() == 503
                      || cause
                              instanceof
                              org.opensearch.client.transport.httpclient5.ResponseException re
                          && re.status() == 503
                          && String.valueOf(re.getMessage())
                              .contains("search_phase_execution_exception");
              if (!starting || attempts <= 1) {
                return CompletableFuture.failedFuture(error);
              }
              return CompletableFuture.supplyAsync(
                      () -> null,
                      CompletableFuture.delayedExecutor(
                          250, java.util.concurrent.TimeUnit.MILLISECONDS))
                  .thenCompose(v -> searchCall(search, attempts - 1));
            });
  }

  /** Calls the client; a failure it throws fails the stage, as the client's own failures do. */
  private static <T> CompletionStage<T> call(IoCall<T> call) {
    try {
      return call.run();
    } catch (IOException | RuntimeException e) {
      return CompletableFuture.failedFuture(e);
    }
  }

  @FunctionalInterface
  private interface IoCall<T> {
    CompletionStage<T> run() throws IOException;
  }
}
