package io.varve.server;

import static io.varve.server.Events.b64;
import static io.varve.server.Events.event;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.local.VarveHome;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.opensearch.LocalOpenSearchSettings;
import io.varve.server.config.ServerSettings;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The index store's life around the primary store, on an OpenSearch node of this test's own (so
 * that it can be stopped): writes succeed while it is down and a backfill makes every event
 * searchable after it is back; retention deletes whole index slices.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class IndexLifecycleIT {

  static final String OUTAGE = "index_outage_it";
  static final String RETENTION = "index_retention_it";
  static final MovableClock clock = new MovableClock();
  static LocalOpenSearch node;
  static TestServer server;
  static final HttpClient http = TestHttp.client();

  @BeforeAll
  static void start() throws Exception {
    Path home = VarveHome.locate();
    int httpPort = freePort();
    int transportPort = freePort();
    node =
        new LocalOpenSearch(
            LocalOpenSearchSettings.forDevelopment(home).toBuilder()
                .home(home.resolve(".varve/test-opensearch-lifecycle-" + httpPort))
                .httpPort(httpPort)
                .transportPort(transportPort)
                .build());
    node.start();
    node.awaitReady(Duration.ofMinutes(2));
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(
        config,
        """
        timeseries:
          sliceMaintenanceInterval: 1s
        opensearch:
          requestTimeout: 5s
        """);
    ServerSettings settings =
        ServerSettings.load(config).toBuilder()
            .openSearchUrls(List.of(node.settings().endpoint()))
            .build();
    server = new TestServer(settings, clock, "varve_index_lifecycle_it", OUTAGE, RETENTION);
    create(OUTAGE, "");
    create(
        RETENTION,
        """
        , "lifecycleConfigs": {"lifecycleConfig": [{"type": "retention",
            "config": {"close_after": "3600s", "delete_after": "7200s"}}]}""");
  }

  static void create(String ns, String indexRetention) {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "%s", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"type": "CASSANDRA", "dataset": "%s"},
           "config": {"timePartition": {"secondsPerTimeSlice": "3600", "secondsPerTimeBucket": "600"},
             "acceptLimit": "3600s"}},
          {"id": "INDEX_STORAGE", "physicalStorage": {"type": "OPENSEARCH", "cluster": "local", "dataset": "lifecycle"},
           "config": {"timePartition": {"secondsPerSlice": "3600"},
             "indexConfig": {"fieldMapping": {"kind": "KEYWORD"}, "refreshInterval": "1s"}}%s}]}"""
                .formatted(ns, ns, indexRetention));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  @AfterAll
  static void stop() throws IOException {
    if (server != null) {
      server.close();
    }
    if (node != null) {
      node.stop(Duration.ofSeconds(30));
      try (Stream<Path> files = Files.walk(node.settings().home())) {
        files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
      }
    }
  }

  static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  static List<ObjectNode> events(String prefix, Instant base, int count) {
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < count; i++) {
      events.add(
          event("s" + (i % 4), base.minusMillis(1000L * i), prefix + i, "kind", "k" + (i % 3)));
    }
    return events;
  }

  static String interval(Instant from, Instant to) {
    return "{\"start\": \"" + from + "\", \"end\": \"" + to + "\"}";
  }

  static long count(String ns, Instant from, Instant to) {
    TestServer.Reply reply =
        server.post(
            "AggregateEventRecords",
            "{\"namespace\": \""
                + ns
                + "\", \"timeInterval\": "
                + interval(from, to)
                + ", \"aggregationQuery\": {\"count\": {}}}");
    return reply.status() == 200 ? reply.body().path("count").asLong() : -1;
  }

  static void awaitCount(String ns, Instant from, Instant to, long expected)
      throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    long seen = -1;
    while (System.nanoTime() < deadline) {
      seen = count(ns, from, to);
      if (seen == expected) {
        return;
      }
      Thread.sleep(250);
    }
    throw new AssertionError(ns + ": " + seen + " events searchable, expected " + expected);
  }

  static List<String> indices(String prefix) throws Exception {
    HttpResponse<String> reply =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        node.settings().endpoint()
                            + "/_cat/indices/"
                            + prefix
                            + "*?format=json&h=index"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    List<String> names = new ArrayList<>();
    TestServer.JSON.readTree(reply.body()).forEach(i -> names.add(i.path("index").asText()));
    return names;
  }

  @Test
  @Order(1)
  void writes_succeed_while_the_index_store_is_down_and_a_backfill_makes_every_event_searchable()
      throws Exception {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Instant from = now.minus(Duration.ofMinutes(30));
    Instant to = now.plusSeconds(1);
    TestServer.Reply first =
        server.post("WriteEventRecordsSync", write(OUTAGE, events("before-", now, 20)));
    assertThat(first.body().path("writtenCount").asInt()).as(first.body().toString()).isEqualTo(20);
    awaitCount(OUTAGE, from, to, 20);

    assertThat(node.stop(Duration.ofSeconds(60))).isTrue();
    for (int batch = 0; batch < 3; batch++) {
      TestServer.Reply during =
          server.post(
              "WriteEventRecordsSync",
              write(
                  OUTAGE, events("during-" + batch + "-", now.minusMillis(300 + batch * 50), 10)));
      assertThat(during.status()).isEqualTo(200);
      assertThat(during.body().path("writtenCount").asInt())
          .as(during.body().toString())
          .isEqualTo(10);
    }
    TestServer.Reply searchWhileDown =
        server.post(
            "AggregateEventRecords",
            "{\"namespace\": \""
                + OUTAGE
                + "\", \"timeInterval\": "
                + interval(from, to)
                + ", \"aggregationQuery\": {\"count\": {}}}");
    assertThat(searchWhileDown.status()).isEqualTo(503);
    // The primary store has all of them, down or not.
    TestServer.Reply read =
        server.post(
            "ReadEventRecords",
            "{\"namespace\": \""
                + OUTAGE
                + "\", \"timeSeriesId\": \"s0\", \"timeInterval\": "
                + interval(from, to)
                + ", \"pageSize\": 1000}");
    assertThat(read.body().path("events").size()).isEqualTo(5 + 3 * 3);

    node.start();
    node.awaitReady(Duration.ofMinutes(2));
    TestServer.Reply backfill =
        server.post(
            "BackfillIndex",
            "{\"namespace\": \"" + OUTAGE + "\", \"timeInterval\": " + interval(from, to) + "}");
    assertThat(backfill.status()).as(backfill.body().toString()).isEqualTo(200);
    assertThat(backfill.body().path("eventsRead").asLong()).isEqualTo(50);
    assertThat(backfill.body().path("eventsIndexed").asLong()).isEqualTo(50);
    assertThat(count(OUTAGE, from, to)).isEqualTo(50);
    JsonNode search =
        server
            .post(
                "SearchEventRecords",
                "{\"namespace\": \""
                    + OUTAGE
                    + "\", \"timeInterval\": "
                    + interval(from, to)
                    + ", \"searchQuery\": {\"equals\": {\"eventItemKey\": \""
                    + b64("kind")
                    + "\", \"eventItemValue\": \""
                    + b64("k1")
                    + "\"}}, \"pageSize\": 1000}")
            .body();
    assertThat(search.path("events").size()).isEqualTo(7 + 3 * 3);
  }

  /** Runs last: it moves the server's clock hours ahead. */
  @Test
  @Order(2)
  void retention_closes_then_deletes_whole_index_slices() throws Exception {
    Instant now = clock.instant().truncatedTo(ChronoUnit.MILLIS);
    Instant from = now.minus(Duration.ofMinutes(50));
    Instant to = now.plusSeconds(1);
    TestServer.Reply written =
        server.post("WriteEventRecordsSync", write(RETENTION, events("r", now, 12)));
    assertThat(written.body().path("writtenCount").asInt())
        .as(written.body().toString())
        .isEqualTo(12);
    awaitCount(RETENTION, from, to, 12);
    String slice =
        "lifecycle." + RETENTION + "." + Math.floorDiv(now.getEpochSecond(), 3600) * 3600;
    assertThat(indices("lifecycle." + RETENTION + ".")).contains(slice);

    // Past close_after (3600 s after the slice's end): left out of searches, still stored.
    clock.advance(Duration.ofHours(2).plusMinutes(1));
    assertThat(count(RETENTION, from, to)).isZero();
    // Past delete_after (7200 s after the slice's end): the whole index is deleted.
    clock.advance(Duration.ofHours(1));
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (indices("lifecycle." + RETENTION + ".").contains(slice)
        && System.nanoTime() < deadline) {
      Thread.sleep(250);
    }
    assertThat(indices("lifecycle." + RETENTION + ".")).doesNotContain(slice);
  }
}
