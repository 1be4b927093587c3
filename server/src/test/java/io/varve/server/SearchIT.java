package io.varve.server;

import static io.varve.server.Events.b64;
import static io.varve.server.Events.event;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.local.testing.TestOpenSearch;
import io.varve.server.config.ServerSettings;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * SearchEventRecords and AggregateEventRecords end to end: events written through the API, indexed
 * into the real OpenSearch started by the project, searched and aggregated; results compared with
 * what the test computes from the events it wrote.
 */
class SearchIT {

  static final String NS = "search_it";
  static final String FULL = "search_full_it";
  static final String PLAIN = "search_plain_it";
  static final String OVERWRITE = "search_overwrite_it";
  static final String[] DEVICES = {"ios", "android", "web"};
  static TestServer server;
  static Instant now;
  static final List<Sample> samples = new ArrayList<>();

  /** What the test wrote, to compute expected answers. */
  record Sample(
      String series,
      Instant time,
      String id,
      String device,
      String duration,
      boolean enabled,
      Instant registered,
      String note) {
    Integer durationValue() {
      try {
        return Integer.parseInt(duration);
      } catch (NumberFormatException e) {
        return null;
      }
    }
  }

  static String indexStorage(String dataset, String mode) {
    return """
        {"id": "INDEX_STORAGE",
         "physicalStorage": {"type": "OPENSEARCH", "cluster": "local", "dataset": "%s"},
         "config": {"timePartition": {"secondsPerSlice": "3600"}, "consistencyScope": "LOCAL",
           "consistencyTarget": "EVENTUAL", "acceptLimit": "14400s",
           "indexConfig": {"fieldMapping": {"deviceType": "KEYWORD", "duration": "INTEGER", "enabled": "BOOLEAN",
             "deviceRegistrationTimestamp": "TIMESTAMP", "note": "TEXT", "score": "DOUBLE", "count": "LONG"},
             "refreshInterval": "1s", "documentMode": "%s"}}}"""
        .formatted(dataset, mode);
  }

  static String primary(String keyspace) {
    return """
        {"id": "PRIMARY_STORAGE", "physical_storage": {"type": "CASSANDRA", "cluster": "local", "dataset": "%s"},
         "config": {"timePartition": {"secondsPerTimeSlice": "3600", "secondPerTimeBucket": "600", "eventBuckets": 4},
           "acceptLimit": "14400s"}}"""
        .formatted(keyspace);
  }

  @BeforeAll
  static void start() throws Exception {
    String dataset = "search-it-" + ProcessHandle.current().pid();
    ServerSettings settings =
        ServerSettings.defaults().toBuilder()
            .openSearchUrls(List.of(URI.create(TestOpenSearch.endpoint())))
            .build();
    server = new TestServer(settings, "varve_search_it", NS, FULL, PLAIN, OVERWRITE);
    for (String[] ns : new String[][] {{NS, "REVERSE_INDEX"}, {FULL, "FULL_EVENT"}}) {
      TestServer.Reply created =
          server.post(
              "CreateNamespace",
              "{\"namespace\": \""
                  + ns[0]
                  + "\", \"persistence_configuration\": ["
                  + primary(ns[0])
                  + ", "
                  + indexStorage(dataset, ns[1])
                  + "]}");
      assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    }
    TestServer.Reply plain =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \""
                + PLAIN
                + "\", \"persistence_configuration\": ["
                + primary(PLAIN)
                + "]}");
    assertThat(plain.status()).as(plain.body().toString()).isEqualTo(200);

    now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < 60; i++) {
      String series = "series-" + (i % 3);
      // Spread over the last 100 minutes, across two index slices (one hour each); two events share
      // a time.
      Instant time = now.minus(Duration.ofSeconds(100L * i)).minusMillis(i == 7 ? 0 : i);
      String device = DEVICES[i % 3 == 0 ? 0 : i % 5 == 0 ? 2 : 1];
      String duration = i % 13 == 12 ? "not-a-number" : Integer.toString(i % 25);
      Instant registered = Instant.parse("2024-10-01T00:00:00Z").plus(Duration.ofHours(i));
      String note = i % 2 == 0 ? "quick brown fox " + i : "lazy dog " + i;
      Sample s =
          new Sample(
              series,
              time,
              String.format("e%02d", i),
              device,
              duration,
              i % 4 == 0,
              registered,
              note);
      samples.add(s);
      events.add(
          event(
              series,
              time,
              s.id(),
              "deviceType",
              device,
              "duration",
              duration,
              "enabled",
              Boolean.toString(s.enabled()),
              "deviceRegistrationTimestamp",
              registered.toString(),
              "note",
              note,
              "payload",
              "not indexed " + i));
    }
    for (String ns : List.of(NS, FULL)) {
      TestServer.Reply written = server.post("WriteEventRecordsSync", write(ns, events));
      assertThat(written.body().path("writtenCount").asInt())
          .as(written.body().toString())
          .isEqualTo(60);
    }
    awaitCount(NS, 60);
    awaitCount(FULL, 60);
  }

  @AfterAll
  static void stop() {
    if (server != null) {
      server.close();
    }
  }

  static void awaitCount(String ns, long expected) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    long count = -1;
    while (System.nanoTime() < deadline) {
      JsonNode reply =
          server.post("AggregateEventRecords", aggregate(ns, "\"count\": {}", null)).body();
      count = reply.path("count").asLong(-1);
      if (count == expected) {
        return;
      }
      Thread.sleep(200);
    }
    throw new AssertionError(ns + ": " + count + " events searchable, expected " + expected);
  }

  static String interval() {
    return "{\"start\": \""
        + now.minus(Duration.ofHours(3))
        + "\", \"end\": \""
        + now.plusSeconds(1)
        + "\"}";
  }

  static String search(String ns, String query, String extra) {
    return "{\"namespace\": \""
        + ns
        + "\", \"timeInterval\": "
        + interval()
        + (query == null ? "" : ", \"searchQuery\": " + query)
        + (extra == null ? "" : ", " + extra)
        + "}";
  }

  static String aggregate(String ns, String aggregation, String query) {
    return "{\"namespace\": \""
        + ns
        + "\", \"timeInterval\": "
        + interval()
        + (query == null ? "" : ", \"searchQuery\": " + query)
        + ", \"aggregationQuery\": {"
        + aggregation
        + "}}";
  }

  static String equals(String key, String value) {
    return "{\"equals\": {\"eventItemKey\": \""
        + b64(key)
        + "\", \"eventItemValue\": \""
        + b64(value)
        + "\"}}";
  }

  static String range(
      String key, String lower, boolean lowerInclusive, String upper, boolean upperInclusive) {
    return "{\"range\": {\"eventItemKey\": \""
        + b64(key)
        + "\""
        + (lower == null
            ? ""
            : ", \"lowerBound\": {\"eventItemValue\": \""
                + b64(lower)
                + "\", \"inclusive\": "
                + lowerInclusive
                + "}")
        + (upper == null
            ? ""
            : ", \"upperBound\": {\"eventItemValue\": \""
                + b64(upper)
                + "\", \"inclusive\": "
                + upperInclusive
                + "}")
        + "}}";
  }

  static String bool(String operator, String... queries) {
    return "{\"booleanQuery\": {\"searchQuery\": ["
        + String.join(", ", queries)
        + "], \"operator\": \""
        + operator
        + "\"}}";
  }

  /** The expected answer: matching samples in search order (time desc, event id, series). */
  static List<String> expected(Predicate<Sample> match) {
    return samples.stream()
        .filter(match)
        .sorted(
            Comparator.comparing(Sample::time)
                .reversed()
                .thenComparing(Sample::id)
                .thenComparing(Sample::series))
        .map(Sample::id)
        .toList();
  }

  /** Every page of a search, concatenated. */
  static List<String> searchAll(String ns, String query, int pageSize) {
    List<String> ids = new ArrayList<>();
    String token = null;
    int pages = 0;
    do {
      TestServer.Reply reply =
          server.post(
              "SearchEventRecords",
              search(
                  ns,
                  query,
                  "\"pageSize\": "
                      + pageSize
                      + (token == null ? "" : ", \"pageToken\": \"" + token + "\"")));
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
      assertThat(reply.body().path("events").size()).isLessThanOrEqualTo(pageSize);
      reply.body().path("events").forEach(e -> ids.add(e.path("eventId").asText()));
      token = reply.body().path("nextPageToken").asText();
      assertThat(++pages).isLessThan(200);
    } while (!token.isEmpty());
    return ids;
  }

  @Test
  void equals_returns_exactly_the_matching_events_newest_first() {
    assertThat(searchAll(NS, equals("deviceType", "ios"), 100))
        .isEqualTo(expected(s -> s.device().equals("ios")))
        .isNotEmpty();
    assertThat(searchAll(NS, equals("enabled", "TRUE"), 100)).isEqualTo(expected(Sample::enabled));
    assertThat(searchAll(NS, equals("duration", "7"), 100))
        .isEqualTo(expected(s -> Integer.valueOf(7).equals(s.durationValue())));
  }

  @Test
  void text_equals_matches_events_containing_all_the_words() {
    assertThat(searchAll(NS, equals("note", "brown fox"), 100))
        .isEqualTo(expected(s -> s.note().contains("brown fox")));
  }

  @Test
  void range_honours_inclusive_and_exclusive_bounds_in_the_field_type() {
    assertThat(searchAll(NS, range("duration", "10", true, "20", false), 100))
        .isEqualTo(
            expected(
                s ->
                    s.durationValue() != null
                        && s.durationValue() >= 10
                        && s.durationValue() < 20));
    assertThat(searchAll(NS, range("duration", "10", false, "20", true), 100))
        .isEqualTo(
            expected(
                s ->
                    s.durationValue() != null
                        && s.durationValue() > 10
                        && s.durationValue() <= 20));
    // Integers compare as numbers, not text: "9" < "10".
    assertThat(searchAll(NS, range("duration", null, false, "10", false), 100))
        .isEqualTo(expected(s -> s.durationValue() != null && s.durationValue() < 10));
    Instant mid = Instant.parse("2024-10-01T00:00:00Z").plus(Duration.ofHours(30));
    assertThat(
            searchAll(
                NS, range("deviceRegistrationTimestamp", mid.toString(), true, null, false), 100))
        .isEqualTo(expected(s -> !s.registered().isBefore(mid)));
  }

  @Test
  void and_or_not_and_nesting() {
    assertThat(
            searchAll(
                NS,
                bool(
                    "AND",
                    equals("deviceType", "android"),
                    range("duration", "5", true, "15", true)),
                100))
        .isEqualTo(
            expected(
                s ->
                    s.device().equals("android")
                        && s.durationValue() != null
                        && s.durationValue() >= 5
                        && s.durationValue() <= 15));
    assertThat(searchAll(NS, bool("OR", equals("deviceType", "web"), equals("duration", "3")), 100))
        .isEqualTo(
            expected(
                s -> s.device().equals("web") || Integer.valueOf(3).equals(s.durationValue())));
    assertThat(searchAll(NS, bool("NOT", equals("deviceType", "ios")), 100))
        .isEqualTo(expected(s -> !s.device().equals("ios")));
    assertThat(
            searchAll(
                NS,
                bool(
                    "AND",
                    equals("enabled", "true"),
                    bool(
                        "OR",
                        equals("deviceType", "web"),
                        bool("NOT", equals("deviceType", "android")))),
                100))
        .isEqualTo(
            expected(
                s -> s.enabled() && (s.device().equals("web") || !s.device().equals("android"))));
  }

  @Test
  void the_reference_request_is_accepted_as_written() {
    String body =
        """
        {
        "namespace": "%s",
        "timeInterval": {
        "start": "%s",
        "end": "%s"
        },
        "searchQuery": {
        "booleanQuery": {
        "searchQuery": [
        {
        "equals": {
        "eventItemKey": "ZGV2aWNlVHlwZQ==",
        "eventItemValue": "aW9z"
        }
        },
        {
        "range": {
        "eventItemKey": "ZGV2aWNlUmVnaXN0cmF0aW9uVGltZXN0YW1w",
        "lowerBound": {
        "eventItemValue": "MjAyNC0xMC0wMlQwMDowMDowMC4wMDBa",
        "inclusive": true
        },
        "upperBound": {
        "eventItemValue": "MjAyNC0xMC0wM1QwMDowMDowMC4wMDBa"
        }
        }
        }
        ],
        "operator": "AND"
        }
        },
        "pageSize": 100,
        "totalRecordLimit": 1000
        }"""
            .formatted(NS, now.minus(Duration.ofHours(3)), now.plusSeconds(1));
    TestServer.Reply reply = server.post("SearchEventRecords", body);
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    Instant from = Instant.parse("2024-10-02T00:00:00.000Z");
    Instant to = Instant.parse("2024-10-03T00:00:00.000Z");
    List<String> ids = new ArrayList<>();
    reply.body().path("events").forEach(e -> ids.add(e.path("eventId").asText()));
    assertThat(ids)
        .isEqualTo(
            expected(
                s ->
                    s.device().equals("ios")
                        && !s.registered().isBefore(from)
                        && s.registered().isBefore(to)))
        .isNotEmpty();
  }

  @Test
  void full_events_come_back_in_both_document_modes() {
    for (String ns : List.of(NS, FULL)) {
      TestServer.Reply reply =
          server.post("SearchEventRecords", search(ns, equals("deviceType", "web"), null));
      JsonNode first = reply.body().path("events").get(0);
      Sample s =
          samples.stream()
              .filter(x -> x.id().equals(first.path("eventId").asText()))
              .findFirst()
              .orElseThrow();
      assertThat(first.path("timeSeriesId").asText()).isEqualTo(s.series());
      assertThat(Instant.parse(first.path("eventTime").asText())).isEqualTo(s.time());
      Map<String, String> items = new TreeMap<>();
      first
          .path("eventItems")
          .forEach(
              i ->
                  items.put(
                      decode(i.path("eventItemKey").asText()),
                      decode(i.path("eventItemValue").asText())));
      assertThat(items)
          .as(ns)
          .containsEntry("payload", "not indexed " + Integer.parseInt(s.id().substring(1)))
          .containsEntry("deviceType", "web")
          .containsEntry("note", s.note())
          .hasSize(6);
    }
  }

  static String decode(String b64) {
    return new String(
        java.util.Base64.getDecoder().decode(b64), java.nio.charset.StandardCharsets.UTF_8);
  }

  @Test
  void paging_returns_every_match_exactly_once_and_total_record_limit_caps_it() {
    List<String> all = searchAll(NS, null, 7);
    assertThat(all).hasSize(60).doesNotHaveDuplicates().isEqualTo(expected(s -> true));
    assertThat(searchAll(FULL, bool("NOT", equals("deviceType", "ios")), 4))
        .isEqualTo(expected(s -> !s.device().equals("ios")));
    List<String> limited = new ArrayList<>();
    String token = null;
    do {
      JsonNode page =
          server
              .post(
                  "SearchEventRecords",
                  search(
                      NS,
                      null,
                      "\"pageSize\": 10, \"totalRecordLimit\": 25"
                          + (token == null ? "" : ", \"pageToken\": \"" + token + "\"")))
              .body();
      page.path("events").forEach(e -> limited.add(e.path("eventId").asText()));
      token = page.path("nextPageToken").asText();
    } while (!token.isEmpty());
    assertThat(limited).isEqualTo(expected(s -> true).subList(0, 25));
  }

  @Test
  void a_tampered_or_foreign_page_token_is_refused() {
    String token =
        server
            .post("SearchEventRecords", search(NS, null, "\"pageSize\": 5"))
            .body()
            .path("nextPageToken")
            .asText();
    assertThat(token).isNotEmpty();
    String tampered = token.substring(0, token.length() - 2) + (token.endsWith("AA") ? "BB" : "AA");
    TestServer.Reply reply =
        server.post(
            "SearchEventRecords",
            search(NS, null, "\"pageSize\": 5, \"pageToken\": \"" + tampered + "\""));
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.errorField()).isEqualTo("pageToken");
    TestServer.Reply foreign =
        server.post(
            "SearchEventRecords",
            search(
                NS,
                equals("deviceType", "ios"),
                "\"pageSize\": 5, \"pageToken\": \"" + token + "\""));
    assertThat(foreign.status()).isEqualTo(400);
    assertThat(foreign.errorMessage()).contains("another request");
  }

  @Test
  void distinct_pages_through_every_value_with_its_count() {
    Map<String, Long> expected =
        samples.stream()
            .filter(s -> s.durationValue() != null)
            .collect(Collectors.groupingBy(Sample::duration, TreeMap::new, Collectors.counting()));
    assertThat(expected.size()).isGreaterThan(20);
    Map<String, Long> seen = new TreeMap<>();
    String token = "";
    int pages = 0;
    do {
      JsonNode reply =
          server
              .post(
                  "AggregateEventRecords",
                  aggregate(
                      NS,
                      "\"distinct\": {\"eventItemKey\": \"duration\", \"pageSize\": 10"
                          + (token.isEmpty() ? "" : ", \"pageToken\": \"" + token + "\"")
                          + "}",
                      null))
              .body();
      JsonNode values = reply.path("distinct").path("values");
      assertThat(values.size()).as(reply.toString()).isLessThanOrEqualTo(10);
      values.forEach(
          v ->
              assertThat(
                      seen.put(decode(v.path("eventItemValue").asText()), v.path("count").asLong()))
                  .as("value seen twice")
                  .isNull());
      token = reply.path("distinct").path("nextPageToken").asText();
      pages++;
    } while (!token.isEmpty());
    assertThat(pages).isGreaterThanOrEqualTo(3);
    assertThat(seen).isEqualTo(expected);
  }

  @Test
  void distinct_as_in_the_reference_with_a_query_and_counts() {
    JsonNode reply =
        server
            .post(
                "AggregateEventRecords",
                aggregate(
                    NS,
                    "\"distinct\": {\"eventItemKey\": \"deviceType\", \"pageSize\": 100}, \"count\": {},"
                        + " \"countByTime\": {\"bucketWidth\": \"1800s\"}",
                    equals("enabled", "true")))
            .body();
    Map<String, Long> values = new TreeMap<>();
    reply
        .path("distinct")
        .path("values")
        .forEach(
            v -> values.put(decode(v.path("eventItemValue").asText()), v.path("count").asLong()));
    assertThat(values)
        .isEqualTo(
            samples.stream()
                .filter(Sample::enabled)
                .collect(
                    Collectors.groupingBy(Sample::device, TreeMap::new, Collectors.counting())));
    long enabled = samples.stream().filter(Sample::enabled).count();
    assertThat(reply.path("count").asLong()).isEqualTo(enabled);
    Map<Instant, Long> buckets = new TreeMap<>();
    reply
        .path("countByTime")
        .forEach(
            b -> buckets.put(Instant.parse(b.path("start").asText()), b.path("count").asLong()));
    assertThat(buckets)
        .isEqualTo(
            samples.stream()
                .filter(Sample::enabled)
                .collect(
                    Collectors.groupingBy(
                        s ->
                            Instant.ofEpochSecond(
                                Math.floorDiv(s.time().getEpochSecond(), 1800) * 1800),
                        TreeMap::new,
                        Collectors.counting())));
  }

  @Test
  void unparsable_values_are_left_out_of_the_index_and_counted() throws Exception {
    long unparsable = samples.stream().filter(s -> s.durationValue() == null).count();
    assertThat(unparsable).isPositive();
    // The event itself is indexed: it is found by its other fields.
    Sample odd = samples.stream().filter(s -> s.durationValue() == null).findFirst().orElseThrow();
    assertThat(searchAll(NS, equals("note", odd.note()), 100)).contains(odd.id());
    HttpResponse<String> metrics =
        TestHttp.client()
            .send(
                HttpRequest.newBuilder(URI.create(server.base() + "/metrics")).build(),
                HttpResponse.BodyHandlers.ofString());
    String line =
        metrics
            .body()
            .lines()
            .filter(
                l ->
                    l.startsWith("varve_index_unparsable_values_total")
                        && l.contains("namespace=\"" + NS + "\""))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no unparsable counter in /metrics"));
    assertThat(line).contains("field=\"duration\"");
    assertThat(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)))
        .isEqualTo((double) unparsable);
  }

  @Test
  void bad_input_gets_a_clear_client_error() {
    TestServer.Reply unknown =
        server.post("SearchEventRecords", search(NS, equals("colour", "red"), null));
    assertThat(unknown.status()).isEqualTo(400);
    assertThat(unknown.errorField()).isEqualTo("searchQuery.equals.eventItemKey");
    assertThat(unknown.errorMessage())
        .contains("colour")
        .contains("deviceType")
        .contains("duration");

    TestServer.Reply badBound =
        server.post(
            "SearchEventRecords",
            search(
                NS,
                bool(
                    "AND",
                    equals("deviceType", "ios"),
                    range("duration", "ten", true, null, false)),
                null));
    assertThat(badBound.status()).isEqualTo(400);
    assertThat(badBound.errorField())
        .isEqualTo("searchQuery.booleanQuery.searchQuery[1].range.lowerBound.eventItemValue");
    assertThat(badBound.errorMessage()).contains("ten").contains("INTEGER");

    TestServer.Reply noIndex =
        server.post("SearchEventRecords", search(PLAIN, equals("deviceType", "ios"), null));
    assertThat(noIndex.status()).isEqualTo(412);
    assertThat(noIndex.body().path("error").path("code").asText()).isEqualTo("FAILED_PRECONDITION");
    assertThat(noIndex.errorMessage()).contains("INDEX_STORAGE");

    TestServer.Reply empty =
        server.post(
            "SearchEventRecords",
            search(NS, "{\"booleanQuery\": {\"searchQuery\": [], \"operator\": \"AND\"}}", null));
    assertThat(empty.status()).isEqualTo(400);
    assertThat(empty.errorField()).isEqualTo("searchQuery.booleanQuery.searchQuery");

    String deep = equals("deviceType", "ios");
    for (int i = 0; i < 9; i++) {
      deep = bool("AND", deep);
    }
    TestServer.Reply tooDeep = server.post("SearchEventRecords", search(NS, deep, null));
    assertThat(tooDeep.status()).isEqualTo(400);
    assertThat(tooDeep.errorMessage()).contains("at most 8 deep");

    TestServer.Reply wide =
        server.post(
            "SearchEventRecords",
            "{\"namespace\": \""
                + NS
                + "\", \"timeInterval\": "
                + "{\"start\": \"2026-01-01T00:00:00Z\", \"end\": \"2026-03-01T00:00:00Z\"}}");
    assertThat(wide.status()).isEqualTo(400);
    assertThat(wide.errorField()).isEqualTo("timeInterval");
    assertThat(wide.errorMessage()).contains("at most 2678400s");

    TestServer.Reply badOperator =
        server.post(
            "SearchEventRecords", search(NS, bool("XOR", equals("deviceType", "ios")), null));
    assertThat(badOperator.status()).isEqualTo(400);
    assertThat(badOperator.errorField()).isEqualTo("searchQuery.booleanQuery.operator");

    TestServer.Reply textRange =
        server.post("SearchEventRecords", search(NS, range("note", "a", true, "b", true), null));
    assertThat(textRange.status()).isEqualTo(400);
    assertThat(textRange.errorMessage()).contains("TEXT");

    TestServer.Reply textDistinct =
        server.post(
            "AggregateEventRecords",
            aggregate(NS, "\"distinct\": {\"eventItemKey\": \"note\"}", null));
    assertThat(textDistinct.status()).isEqualTo(400);
    assertThat(textDistinct.errorField()).isEqualTo("aggregationQuery.distinct.eventItemKey");

    TestServer.Reply noAggregation = server.post("AggregateEventRecords", aggregate(NS, "", null));
    assertThat(noAggregation.status()).isEqualTo(400);
    assertThat(noAggregation.errorField()).isEqualTo("aggregationQuery");

    TestServer.Reply tooManyBuckets =
        server.post(
            "AggregateEventRecords",
            aggregate(NS, "\"countByTime\": {\"bucketWidth\": \"1s\"}", null));
    assertThat(tooManyBuckets.status()).isEqualTo(400);
    assertThat(tooManyBuckets.errorField()).isEqualTo("aggregationQuery.countByTime.bucketWidth");
  }

  @Test
  void a_changed_field_type_is_refused_and_an_added_field_is_indexed_by_a_backfill()
      throws Exception {
    String dataset =
        server
            .post("GetNamespace", "{\"namespace\": \"" + FULL + "\"}")
            .body()
            .path("persistenceConfiguration")
            .get(1)
            .path("physicalStorage")
            .path("dataset")
            .asText();
    String changed =
        indexStorage(dataset, "FULL_EVENT")
            .replace("\"duration\": \"INTEGER\"", "\"duration\": \"KEYWORD\"");
    TestServer.Reply refused =
        server.post(
            "UpdateNamespace",
            "{\"namespace\": \""
                + FULL
                + "\", \"persistence_configuration\": ["
                + primary(FULL)
                + ", "
                + changed
                + "]}");
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.errorField())
        .isEqualTo("persistence_configuration[1].config.indexConfig.fieldMapping.duration");

    String added =
        indexStorage(dataset, "FULL_EVENT")
            .replace("\"note\": \"TEXT\"", "\"note\": \"TEXT\", \"payload\": \"KEYWORD\"");
    TestServer.Reply updated =
        server.post(
            "UpdateNamespace",
            "{\"namespace\": \""
                + FULL
                + "\", \"persistence_configuration\": ["
                + primary(FULL)
                + ", "
                + added
                + "]}");
    assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
    assertThat(searchAll(FULL, equals("payload", "not indexed 5"), 100)).isEmpty();

    TestServer.Reply backfill =
        server.post(
            "BackfillIndex",
            "{\"namespace\": \"" + FULL + "\", \"timeInterval\": " + interval() + "}");
    assertThat(backfill.status()).as(backfill.body().toString()).isEqualTo(200);
    assertThat(backfill.body().path("eventsRead").asLong()).isEqualTo(60);
    assertThat(backfill.body().path("eventsIndexed").asLong()).isEqualTo(60);
    assertThat(backfill.body().path("unparsableValues").asLong())
        .isEqualTo(samples.stream().filter(s -> s.durationValue() == null).count());
    assertThat(searchAll(FULL, equals("payload", "not indexed 5"), 100)).containsExactly("e05");
    assertThat(searchAll(FULL, null, 100)).hasSize(60).doesNotHaveDuplicates();
  }

  @Test
  void an_overwritten_value_comes_back_as_last_written_from_search_and_backfill() throws Exception {
    String dataset = "search-overwrite-it-" + ProcessHandle.current().pid();
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \""
                + OVERWRITE
                + "\", \"persistence_configuration\": ["
                + primary(OVERWRITE)
                + ", "
                + indexStorage(dataset, "REVERSE_INDEX")
                + "]}");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    Instant t = now.minusSeconds(30);
    String zeros = b64(new byte[10_000]);
    for (String payload : List.of(zeros, b64("small"))) {
      ObjectNode e = event("overwrite", t, "same-identity", "deviceType", "overwritten");
      e.withArray("eventItems")
          .addObject()
          .put("eventItemKey", b64("payload"))
          .put("eventItemValue", payload);
      TestServer.Reply written = server.post("WriteEventRecordsSync", write(OVERWRITE, List.of(e)));
      assertThat(written.body().path("writtenCount").asInt())
          .as(written.body().toString())
          .isEqualTo(1);
    }
    awaitCount(OVERWRITE, 1);
    TestServer.Reply found =
        server.post(
            "SearchEventRecords", search(OVERWRITE, equals("deviceType", "overwritten"), null));
    assertThat(found.status()).as(found.body().toString()).isEqualTo(200);
    Map<String, String> items = new TreeMap<>();
    found
        .body()
        .path("events")
        .get(0)
        .path("eventItems")
        .forEach(
            i ->
                items.put(
                    decode(i.path("eventItemKey").asText()),
                    decode(i.path("eventItemValue").asText())));
    assertThat(items).containsEntry("payload", "small");

    TestServer.Reply backfill =
        server.post(
            "BackfillIndex",
            "{\"namespace\": \"" + OVERWRITE + "\", \"timeInterval\": " + interval() + "}");
    assertThat(backfill.status()).as(backfill.body().toString()).isEqualTo(200);
    assertThat(backfill.body().path("eventsRead").asLong()).isEqualTo(1);
    assertThat(backfill.body().path("eventsFailed").asLong()).isEqualTo(0);
  }
}
