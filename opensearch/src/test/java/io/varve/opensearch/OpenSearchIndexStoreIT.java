package io.varve.opensearch;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.tuple;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.varve.core.error.StorageException;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.index.DocumentMode;
import io.varve.core.index.FieldType;
import io.varve.core.index.IndexDocument;
import io.varve.core.index.IndexSlices;
import io.varve.core.index.IndexSpec;
import io.varve.core.index.IndexStore;
import io.varve.core.index.IndexedEvent;
import io.varve.core.index.SearchCursor;
import io.varve.core.index.SearchQuery;
import io.varve.core.index.SearchQuery.Bool;
import io.varve.core.index.SearchQuery.Equals;
import io.varve.core.index.SearchQuery.Operator;
import io.varve.core.index.SearchQuery.Range;
import io.varve.core.namespace.Retention;
import io.varve.local.testing.TestOpenSearch;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The index store on a real OpenSearch node started for the test run: index slices with their
 * mapping, bulk indexing, every query form translated and run, search_after paging, aggregations,
 * and failures classified. Expected answers are computed from the events the test indexed.
 */
class OpenSearchIndexStoreIT {

  static final Instant BASE = Instant.parse("2024-03-08T00:00:00Z");
  static final String DATASET = "os-it-" + ProcessHandle.current().pid();
  static final Map<String, FieldType> FIELDS =
      Map.of(
          "device",
          FieldType.KEYWORD,
          "note",
          FieldType.TEXT,
          "count",
          FieldType.LONG,
          "score",
          FieldType.DOUBLE,
          "enabled",
          FieldType.BOOLEAN,
          "at",
          FieldType.TIMESTAMP,
          "small",
          FieldType.INTEGER);
  static final IndexSpec SPEC = spec("full", FIELDS, DocumentMode.FULL_EVENT);
  static final IndexSpec REVERSE = spec("reverse", FIELDS, DocumentMode.REVERSE_INDEX);
  static final String[] DEVICES = {"ios", "android", "web", "ios"};
  static final ObjectMapper JSON = new ObjectMapper();
  static String endpoint;
  static OpenSearchIndexStore store;
  static final List<Event> events = new ArrayList<>();

  static IndexSpec spec(String namespace, Map<String, FieldType> fields, DocumentMode mode) {
    return new IndexSpec(
        namespace,
        DATASET,
        3600,
        fields,
        Duration.ofSeconds(30),
        mode,
        Duration.ofDays(1),
        Retention.FOREVER);
  }

  static Event event(int i) {
    // 36 events over two hours (two index slices); events 10 and 11 share a millisecond
    long time = BASE.toEpochMilli() + (i == 11 ? 10 : i) * 200_000L;
    List<EventItem> items = new ArrayList<>();
    String[] kv = {
      "device",
      DEVICES[i % 4],
      "note",
      i % 2 == 0 ? "quick brown fox " + i : "lazy dog " + i,
      "count",
      i == 7 ? "n/a" : Integer.toString(i),
      "score",
      Double.toString(i / 4.0),
      "enabled",
      Boolean.toString(i % 3 == 0),
      "at",
      BASE.plus(Duration.ofHours(i)).toString(),
      "small",
      Integer.toString(i % 5),
      "unmapped",
      "x" + i
    };
    for (int k = 0; k < kv.length; k += 2) {
      items.add(
          new EventItem(
              kv[k].getBytes(StandardCharsets.UTF_8), kv[k + 1].getBytes(StandardCharsets.UTF_8)));
    }
    return new Event("s" + i % 3, time, String.format("e%02d", i), items);
  }

  static String item(Event e, String key) {
    return e.items().stream()
        .filter(i -> new String(i.key(), StandardCharsets.UTF_8).equals(key))
        .map(i -> new String(i.value(), StandardCharsets.UTF_8))
        .findFirst()
        .orElseThrow();
  }

  static int number(Event e) {
    return Integer.parseInt(e.eventId().substring(1));
  }

  @BeforeAll
  static void index() {
    endpoint = TestOpenSearch.endpoint();
    store =
        new OpenSearchIndexStore(
            OpenSearchClients.open(
                OpenSearchSettings.none().withUrls(List.of(URI.create(endpoint)))));
    for (int i = 0; i < 36; i++) {
      events.add(event(i));
    }
    for (IndexSpec spec : List.of(SPEC, REVERSE)) {
      List<IndexDocument> documents =
          events.stream().map(e -> IndexedEvent.of(spec, e).document()).toList();
      for (String index : documents.stream().map(IndexDocument::index).distinct().toList()) {
        store.prepare(index, spec).toCompletableFuture().join();
      }
      IndexStore.BulkOutcome outcome = store.bulk(documents, spec).toCompletableFuture().join();
      assertThat(outcome.failures()).isEmpty();
      assertThat(outcome.indexed()).isEqualTo(36);
      store
          .refresh(
              IndexSlices.covering(
                  spec, BASE.toEpochMilli(), BASE.plusSeconds(7200).toEpochMilli()))
          .toCompletableFuture()
          .join();
    }
  }

  @AfterAll
  static void close() throws Exception {
    if (store != null) {
      store
          .delete(store.indices(DATASET + ".").toCompletableFuture().join())
          .toCompletableFuture()
          .join();
      store.close();
    }
  }

  /** Every hit of {@code query} in [from, to), page by page with search_after. */
  static List<IndexStore.Hit> search(
      IndexSpec spec, SearchQuery query, long from, long to, int pageSize) {
    List<IndexStore.Hit> all = new ArrayList<>();
    Optional<SearchCursor> after = Optional.empty();
    while (true) {
      List<IndexStore.Hit> page =
          store
              .search(
                  new IndexStore.Search(
                      spec, IndexSlices.covering(spec, from, to), from, to, query, after, pageSize))
              .toCompletableFuture()
              .join();
      all.addAll(page);
      if (page.size() < pageSize) {
        return all;
      }
      IndexStore.Hit last = page.get(page.size() - 1);
      after =
          Optional.of(
              new SearchCursor(last.eventTimeMillis(), last.eventId(), last.timeSeriesId()));
    }
  }

  static List<String> ids(SearchQuery query) {
    return search(SPEC, query, BASE.toEpochMilli(), BASE.plusSeconds(7200).toEpochMilli(), 4)
        .stream()
        .map(IndexStore.Hit::eventId)
        .toList();
  }

  /**
   * The ids of the events that match, in the search order: newest first, then event id, then
   * series.
   */
  static List<String> expected(Predicate<Event> matches) {
    return events.stream()
        .filter(matches)
        .sorted(
            Comparator.comparingLong(Event::eventTimeMillis)
                .reversed()
                .thenComparing(Event::eventId)
                .thenComparing(Event::timeSeriesId))
        .map(Event::eventId)
        .toList();
  }

  @Test
  void each_index_slice_has_the_mapping_of_the_namespace_and_nothing_is_mapped_dynamically()
      throws Exception {
    assertThat(store.indices(IndexSlices.prefix(SPEC)).toCompletableFuture().join())
        .containsExactly(
            IndexSlices.prefix(SPEC) + BASE.getEpochSecond(),
            IndexSlices.prefix(SPEC) + (BASE.getEpochSecond() + 3600));

    JsonNode mapping =
        get("/" + IndexSlices.indexFor(SPEC, BASE.toEpochMilli()) + "/_mapping")
            .elements()
            .next()
            .path("mappings");
    assertThat(mapping.path("dynamic").asText()).isEqualTo("false");
    JsonNode properties = mapping.path("properties");
    assertThat(properties.path(OpenSearchIndexStore.field("device")).path("type").asText())
        .isEqualTo("keyword");
    assertThat(properties.path(OpenSearchIndexStore.field("note")).path("type").asText())
        .isEqualTo("text");
    assertThat(properties.path(OpenSearchIndexStore.field("count")).path("type").asText())
        .isEqualTo("long");
    assertThat(properties.path(OpenSearchIndexStore.field("at")).path("type").asText())
        .isEqualTo("date");
    assertThat(properties.path(OpenSearchIndexStore.field("unmapped")).isMissingNode()).isTrue();
    assertThat(properties.path("ts").path("type").asText()).isEqualTo("keyword");
  }

  @Test
  void equals_matches_a_keyword_exactly_a_text_by_all_its_words_and_typed_values_by_value() {
    assertThat(ids(new Equals("device", FieldType.KEYWORD, "ios")))
        .isNotEmpty()
        .isEqualTo(expected(e -> item(e, "device").equals("ios")));
    assertThat(ids(new Equals("device", FieldType.KEYWORD, "IOS"))).isEmpty();
    assertThat(ids(new Equals("note", FieldType.TEXT, "fox quick")))
        .isEqualTo(expected(e -> number(e) % 2 == 0));
    assertThat(ids(new Equals("note", FieldType.TEXT, "quick dog"))).isEmpty();
    assertThat(ids(new Equals("count", FieldType.LONG, 12L))).containsExactly("e12");
    assertThat(ids(new Equals("count", FieldType.LONG, 7L)))
        .as("an unparsable value is not indexed")
        .isEmpty();
    assertThat(ids(new Equals("enabled", FieldType.BOOLEAN, true)))
        .isEqualTo(expected(e -> number(e) % 3 == 0));
    assertThat(ids(new Equals("score", FieldType.DOUBLE, 2.5))).containsExactly("e10");
    assertThat(ids(new Equals("small", FieldType.INTEGER, 4L)))
        .isEqualTo(expected(e -> number(e) % 5 == 4));
  }

  @Test
  void ranges_honour_open_and_inclusive_bounds() {
    assertThat(ids(new Range("count", FieldType.LONG, 5L, true, 10L, false)))
        .isEqualTo(expected(e -> number(e) >= 5 && number(e) < 10 && number(e) != 7));
    assertThat(ids(new Range("count", FieldType.LONG, 5L, false, 10L, true)))
        .isEqualTo(expected(e -> number(e) > 5 && number(e) <= 10 && number(e) != 7));
    assertThat(ids(new Range("count", FieldType.LONG, 30L, true, null, false)))
        .isEqualTo(expected(e -> number(e) >= 30));
    assertThat(ids(new Range("score", FieldType.DOUBLE, null, false, 1.0, false)))
        .isEqualTo(expected(e -> number(e) < 4));
    long at = BASE.plus(Duration.ofHours(20)).toEpochMilli();
    assertThat(ids(new Range("at", FieldType.TIMESTAMP, at, true, at + 3_600_000, true)))
        .containsExactlyInAnyOrder("e20", "e21");
  }

  @Test
  void boolean_queries_combine_and_nest() {
    SearchQuery ios = new Equals("device", FieldType.KEYWORD, "ios");
    SearchQuery even = new Equals("note", FieldType.TEXT, "quick");
    SearchQuery big = new Range("count", FieldType.LONG, 20L, true, null, false);

    assertThat(ids(new Bool(Operator.AND, List.of(ios, even))))
        .isEqualTo(expected(e -> item(e, "device").equals("ios") && number(e) % 2 == 0));
    assertThat(ids(new Bool(Operator.OR, List.of(ios, big))))
        .isEqualTo(expected(e -> item(e, "device").equals("ios") || number(e) >= 20));
    assertThat(ids(new Bool(Operator.NOT, List.of(ios))))
        .isEqualTo(expected(e -> !item(e, "device").equals("ios")));
    assertThat(
            ids(
                new Bool(
                    Operator.AND,
                    List.of(
                        big,
                        new Bool(
                            Operator.NOT, List.of(new Bool(Operator.OR, List.of(ios, even))))))))
        .isEqualTo(
            expected(
                e -> number(e) >= 20 && !item(e, "device").equals("ios") && number(e) % 2 != 0));
  }

  @Test
  void search_after_pages_through_every_hit_of_the_interval_in_order_without_gaps_or_repeats() {
    long from = events.get(5).eventTimeMillis();
    long to = events.get(30).eventTimeMillis();
    for (int pageSize : new int[] {1, 3, 4, 100}) {
      List<String> ids =
          search(SPEC, new SearchQuery.All(), from, to, pageSize).stream()
              .map(IndexStore.Hit::eventId)
              .toList();
      assertThat(ids)
          .as("pages of %d", pageSize)
          .isEqualTo(expected(e -> e.eventTimeMillis() >= from && e.eventTimeMillis() < to));
    }
  }

  @Test
  void full_event_documents_carry_their_items_and_reverse_index_documents_only_the_identity() {
    long from = events.get(3).eventTimeMillis();
    List<IndexStore.Hit> full = search(SPEC, new SearchQuery.All(), from, from + 1, 10);
    List<IndexStore.Hit> reverse = search(REVERSE, new SearchQuery.All(), from, from + 1, 10);

    assertThat(full)
        .singleElement()
        .satisfies(
            hit -> {
              assertThat(hit.timeSeriesId()).isEqualTo("s0");
              assertThat(hit.eventId()).isEqualTo("e03");
              assertThat(hit.items()).contains(events.get(3).items());
            });
    assertThat(reverse).singleElement().satisfies(hit -> assertThat(hit.items()).isEmpty());
  }

  @Test
  void aggregations_page_distinct_values_count_matches_and_count_per_time_bucket() {
    long from = BASE.toEpochMilli();
    long to = BASE.plusSeconds(7200).toEpochMilli();
    IndexStore.Search all =
        new IndexStore.Search(
            SPEC,
            IndexSlices.covering(SPEC, from, to),
            from,
            to,
            new SearchQuery.All(),
            Optional.empty(),
            0);

    IndexStore.Aggregates first =
        store
            .aggregate(
                all,
                new IndexStore.Aggregation(
                    Optional.of("device"),
                    Optional.empty(),
                    2,
                    true,
                    Optional.of(Duration.ofMinutes(30))))
            .toCompletableFuture()
            .join();
    assertThat(first.distinct())
        .extracting(IndexStore.ValueCount::value, IndexStore.ValueCount::count)
        .containsExactly(tuple("android", 9L), tuple("ios", 18L));
    assertThat(first.moreDistinct()).isTrue();
    assertThat(first.count()).isEqualTo(36);
    assertThat(first.buckets())
        .extracting(IndexStore.BucketCount::count)
        .containsExactly(9L, 9L, 9L, 9L);
    assertThat(first.buckets().get(0).startMillis()).isEqualTo(from);

    IndexStore.Aggregates next =
        store
            .aggregate(
                all,
                new IndexStore.Aggregation(
                    Optional.of("device"), Optional.of("ios"), 2, false, Optional.empty()))
            .toCompletableFuture()
            .join();
    assertThat(next.distinct()).extracting(IndexStore.ValueCount::value).containsExactly("web");
    assertThat(next.moreDistinct()).isFalse();
  }

  @Test
  void a_document_the_mapping_refuses_is_reported_alone_and_not_as_retryable() {
    IndexSpec spec = spec("bulk", Map.of("count", FieldType.LONG), DocumentMode.REVERSE_INDEX);
    String index = IndexSlices.indexFor(spec, BASE.toEpochMilli());
    store.prepare(index, spec).toCompletableFuture().join();
    IndexDocument good =
        new IndexDocument(
            index, "bulk-good", "bulk", BASE.toEpochMilli(), "g", Map.of("count", 1L), List.of());
    IndexDocument bad =
        new IndexDocument(
            index,
            "bulk-bad",
            "bulk",
            BASE.toEpochMilli(),
            "b",
            Map.of("count", "not a number"),
            List.of());

    IndexStore.BulkOutcome outcome =
        store.bulk(List.of(good, bad), spec).toCompletableFuture().join();

    assertThat(outcome.indexed()).isEqualTo(1);
    assertThat(outcome.failures()).singleElement().asString().startsWith(index + "/bulk-bad: ");
    assertThat(outcome.retryable()).isFalse();
  }

  @Test
  void a_month_of_hourly_slices_searched_and_years_of_them_refreshed_fit_the_request_line() {
    long from = BASE.minus(java.time.Duration.ofDays(31)).toEpochMilli();
    long to = BASE.plusSeconds(7200).toEpochMilli();
    assertThat(IndexSlices.covering(SPEC, from, to)).hasSizeGreaterThan(700);
    assertThat(
            search(SPEC, new SearchQuery.All(), from, to, 1000).stream()
                .map(IndexStore.Hit::eventId))
        .containsExactlyElementsOf(expected(e -> true));
    // a backfill from 1980 refreshes every slice it covers: about 400,000 names, most missing
    long since1980 = java.time.Instant.parse("1980-01-08T00:00:00Z").toEpochMilli();
    store.refresh(IndexSlices.covering(SPEC, since1980, to)).toCompletableFuture().join();
  }

  @Test
  void delete_removes_indices_and_ignores_missing_ones() {
    IndexSpec doomed =
        spec("doomed", Map.of("device", FieldType.KEYWORD), DocumentMode.REVERSE_INDEX);
    String index = IndexSlices.indexFor(doomed, BASE.toEpochMilli());
    store.prepare(index, doomed).toCompletableFuture().join();
    assertThat(store.indices(IndexSlices.prefix(doomed)).toCompletableFuture().join())
        .containsExactly(index);

    store.delete(List.of(index, IndexSlices.prefix(doomed) + "0")).toCompletableFuture().join();

    assertThat(store.indices(IndexSlices.prefix(doomed)).toCompletableFuture().join()).isEmpty();
  }

  @Test
  void an_index_deleted_behind_the_stores_back_is_refused_not_retryable_when_a_field_is_added()
      throws Exception {
    IndexSpec before =
        spec("vanishing", Map.of("device", FieldType.KEYWORD), DocumentMode.REVERSE_INDEX);
    String index = IndexSlices.indexFor(before, BASE.toEpochMilli());
    store.prepare(index, before).toCompletableFuture().join();
    HttpResponse<String> deleted =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(endpoint + "/" + index)).DELETE().build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(deleted.statusCode()).isEqualTo(200);

    IndexSpec after =
        spec(
            "vanishing",
            Map.of("device", FieldType.KEYWORD, "added", FieldType.LONG),
            DocumentMode.REVERSE_INDEX);
    assertThatThrownBy(() -> store.prepare(index, after).toCompletableFuture().join())
        .cause()
        .isInstanceOfSatisfying(
            StorageException.class,
            e -> {
              assertThat(e.reason()).isEqualTo(StorageException.Reason.REFUSED);
              assertThat(e.retryable()).isFalse();
              assertThat(e.getMessage())
                  .startsWith("the index store refused the request: ")
                  .contains("index_not_found_exception");
            });
  }

  @Test
  void a_node_that_cannot_be_reached_is_unavailable_and_retryable() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    try (OpenSearchIndexStore nowhere =
        new OpenSearchIndexStore(
            OpenSearchClients.open(
                OpenSearchSettings.none()
                    .withUrls(List.of(URI.create("http://127.0.0.1:" + port)))))) {
      assertThatThrownBy(
              () ->
                  nowhere
                      .search(
                          new IndexStore.Search(
                              SPEC,
                              List.of("any"),
                              0,
                              1,
                              new SearchQuery.All(),
                              Optional.empty(),
                              1))
                      .toCompletableFuture()
                      .join())
          .cause()
          .isInstanceOfSatisfying(
              StorageException.class,
              e -> {
                assertThat(e.reason()).isEqualTo(StorageException.Reason.UNAVAILABLE);
                assertThat(e.retryable()).isTrue();
              });
    }
  }

  private static JsonNode get(String path) throws Exception {
    HttpResponse<String> response =
        HttpClient.newHttpClient()
            .send(
                HttpRequest.newBuilder(URI.create(endpoint + path)).GET().build(),
                HttpResponse.BodyHandlers.ofString());
    assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
    return JSON.readTree(response.body());
  }
}
