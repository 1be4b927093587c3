package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.local.testing.TestCassandra;
import io.varve.local.testing.TestOpenSearch;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The latency objectives of SearchEventRecords and AggregateEventRecords on the real local
 * Cassandra and OpenSearch, each behind a delaying proxy: a search whose events are slow to read
 * back comes in partial pages, an aggregation past its max answers DEADLINE_EXCEEDED, and
 * UpdateNamespace moves the max.
 */
class TimeSeriesSearchSloIT {

  static final String KEYSPACE = "ts_search_slo_it";
  static final String NS = "ts_search_slo";
  static final int EVENTS = 40;
  static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  static DelayingProxy cassandra;
  static DelayingProxy opensearch;
  static TestServer server;
  static String dataset;

  @BeforeAll
  static void start() throws Exception {
    cassandra = new DelayingProxy(TestCassandra.contactPoint());
    URI os = URI.create(TestOpenSearch.endpoint());
    opensearch = new DelayingProxy(new InetSocketAddress(os.getHost(), os.getPort()));
    dataset = "ts-search-slo-" + ProcessHandle.current().pid();
    ServerSettings settings =
        ServerSettings.defaults().toBuilder()
            .openSearchUrls(
                List.of(URI.create("http://127.0.0.1:" + opensearch.address().getPort())))
            .build();
    server =
        new TestServer(
            settings,
            java.time.Clock.systemUTC(),
            "varve_ts_search_slo_it",
            session -> {},
            cassandra.address(),
            KEYSPACE);
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            namespace(
                "\"SearchEventRecords\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"0.3s\"}},"
                    + " \"AggregateEventRecords\": {\"latency\": {\"target\": \"0.1s\", \"max\":"
                    + " \"0.3s\"}}"));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < EVENTS; i++) {
      events.add(
          Events.event(
              "series-" + (i % 4),
              NOW.minusSeconds(60L * i + 1),
              String.format("e%02d", i),
              "deviceType",
              "ios"));
    }
    TestServer.Reply written = server.post("WriteEventRecordsSync", Events.write(NS, events));
    assertThat(written.body().path("writtenCount").asInt()).isEqualTo(EVENTS);
    long until = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    while (count() != EVENTS && System.nanoTime() < until) {
      Thread.sleep(200);
    }
    assertThat(count()).as("events searchable").isEqualTo(EVENTS);
  }

  @AfterEach
  void quick() {
    cassandra.delay(Duration.ZERO);
    opensearch.delay(Duration.ZERO);
  }

  @AfterAll
  static void stop() throws Exception {
    if (server != null) {
      server.close();
    }
    cassandra.close();
    opensearch.close();
  }

  /** The namespace: events in Cassandra, their ids indexed in OpenSearch, {@code slos} as given. */
  static String namespace(String slos) {
    return "{\"namespace\": \""
        + NS
        + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", \"physicalStorage\":"
        + " {\"dataset\": \""
        + KEYSPACE
        + "\"}, \"config\": {\"timePartition\": {\"secondsPerTimeSlice\": 3600,"
        + " \"secondsPerTimeBucket\": 600, \"eventBuckets\": 4}, \"acceptLimit\": \"14400s\","
        + " \"slos\": {"
        + slos
        + "}}}, {\"id\": \"INDEX_STORAGE\", \"physicalStorage\": {\"type\": \"OPENSEARCH\","
        + " \"dataset\": \""
        + dataset
        + "\"}, \"config\": {\"timePartition\": {\"secondsPerSlice\": 3600}, \"indexConfig\":"
        + " {\"fieldMapping\": {\"deviceType\": \"KEYWORD\"}, \"refreshInterval\": \"1s\","
        + " \"documentMode\": \"REVERSE_INDEX\"}}}]}";
  }

  static String interval() {
    return "{\"start\": \"" + NOW.minus(Duration.ofHours(3)) + "\", \"end\": \"" + NOW + "\"}";
  }

  static TestServer.Reply aggregate() {
    return server.post(
        "AggregateEventRecords",
        "{\"namespace\": \""
            + NS
            + "\", \"timeInterval\": "
            + interval()
            + ", \"aggregationQuery\": {\"count\": {}}}");
  }

  static long count() {
    return aggregate().body().path("count").asLong(-1);
  }

  /** Every page of a search of all events, {@code pageSize} at a time. */
  static List<JsonNode> pages(int pageSize) {
    List<JsonNode> pages = new ArrayList<>();
    String token = "";
    do {
      TestServer.Reply page =
          server.post(
              "SearchEventRecords",
              "{\"namespace\": \""
                  + NS
                  + "\", \"timeInterval\": "
                  + interval()
                  + ", \"pageSize\": "
                  + pageSize
                  + (token.isEmpty() ? "" : ", \"pageToken\": \"" + token + "\"")
                  + "}");
      assertThat(page.status()).as(page.body().toString()).isEqualTo(200);
      pages.add(page.body());
      token = page.body().path("nextPageToken").asText();
    } while (!token.isEmpty());
    return pages;
  }

  static List<String> ids(List<JsonNode> pages) {
    List<String> ids = new ArrayList<>();
    pages.forEach(p -> ids.addAll(Events.ids(p)));
    return ids;
  }

  @Test
  void a_search_whose_events_are_slow_to_read_back_comes_in_partial_pages_covering_all_once()
      throws Exception {
    List<String> whole = ids(pages(1000));
    assertThat(whole).hasSize(EVENTS);
    double partialBefore = server.metric("varve_timeseries_search_pages_partial_total");
    // each event read back from Cassandra answers after the 300 ms max
    cassandra.delay(Duration.ofMillis(400));

    List<JsonNode> pages = pages(20);

    long partial = pages.stream().filter(p -> p.path("partial").asBoolean()).count();
    System.out.printf(
        "search of %d events, reads 400 ms slow, 300 ms max: %d pages, %d partial%n",
        EVENTS, pages.size(), partial);
    assertThat(ids(pages)).containsExactlyElementsOf(whole);
    assertThat(partial).isGreaterThanOrEqualTo(1);
    assertThat(server.metric("varve_timeseries_search_pages_partial_total") - partialBefore)
        .isGreaterThanOrEqualTo(partial);
  }

  @Test
  void an_aggregation_past_its_max_answers_deadline_exceeded_until_update_namespace_raises_it()
      throws Exception {
    double cancelledBefore = server.metric("varve_timeseries_aggregate_fetches_cancelled_total");
    opensearch.delay(Duration.ofMillis(800));

    long start = System.nanoTime();
    TestServer.Reply late = aggregate();
    long millis = (System.nanoTime() - start) / 1_000_000;

    assertThat(late.status()).as(late.body().toString()).isEqualTo(504);
    assertThat(late.body().path("error").path("code").asText()).isEqualTo("DEADLINE_EXCEEDED");
    assertThat(late.errorMessage()).contains("0.3s");
    assertThat(millis).as("answered at the max, not when OpenSearch answers").isLessThan(700);
    SloFixture.assertCancelledAndNothingRunning(
        server,
        "varve_timeseries_aggregate_fetches_cancelled_total",
        cancelledBefore,
        "varve_timeseries_aggregate_running");

    TestServer.Reply updated =
        server.post(
            "UpdateNamespace",
            namespace(
                "\"SearchEventRecords\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"0.3s\"}},"
                    + " \"AggregateEventRecords\": {\"latency\": {\"target\": \"1s\", \"max\":"
                    + " \"10s\"}}"));
    assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);

    TestServer.Reply patient = aggregate();
    assertThat(patient.status()).as(patient.body().toString()).isEqualTo(200);
    assertThat(patient.body().path("count").asLong()).isEqualTo(EVENTS);
  }
}
