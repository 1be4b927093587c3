package io.varve.server;

import static io.varve.server.Events.event;
import static io.varve.server.Events.ids;
import static io.varve.server.Events.read;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.server.config.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The cache of immutable ranges on the real test Cassandra, the server's clock moved forward: pages
 * of a range older than the accept limit and the safety margin come from the cache, equal to the
 * ones read from Cassandra; a range whose events may still be landing is never cached, so an event
 * accepted at the window's edge and written late is never hidden by a stale page; a retention
 * change is never answered from the cache.
 */
class ImmutableRangeCacheIT {

  static final String NS = "read_cache_it";
  static final String EDGE = "read_cache_edge_it";
  static final MovableClock clock = new MovableClock();
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(
        config,
        """
        timeseries:
          sliceMaintenanceInterval: 1s
          readCache:
            safetyMargin: 150s
        """);
    server = new TestServer(ServerSettings.load(config), clock, "varve_read_cache_it", NS, EDGE);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static void create(String ns, String config, String entry) {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
            {"namespace": "%s", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
              "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 600,
                "eventBuckets": 2}, "acceptLimit": "1h"%s}%s}]}"""
                .formatted(ns, config, entry));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  static double counter(String name) {
    return server.metric("varve_timeseries_read_cache_" + name + "_total");
  }

  /** Every page of a read, in order, as the server answered them. */
  static List<JsonNode> pages(String ns, Instant from, Instant to, int pageSize) {
    List<JsonNode> pages = new ArrayList<>();
    String token = "";
    do {
      ObjectNode request = read(ns, "s", from, to);
      request.put("pageSize", pageSize);
      if (!token.isEmpty()) {
        request.put("pageToken", token);
      }
      JsonNode page = server.post("ReadEventRecords", request).body();
      pages.add(page);
      token = page.path("nextPageToken").asText();
    } while (!token.isEmpty());
    return pages;
  }

  @Test
  void pages_of_an_immutable_range_come_from_the_cache_equal_to_those_read_from_cassandra()
      throws Exception {
    create(NS, "", "");
    Instant t = clock.instant().minus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.MILLIS);
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      events.add(event("s", t.plusMillis(i), "e" + i, "k", "v" + i));
    }
    assertThat(
            server
                .post("WriteEventRecordsSync", write(NS, events))
                .body()
                .path("writtenCount")
                .asInt())
        .isEqualTo(5);
    Instant from = t.minusSeconds(1);
    Instant to = t.plusSeconds(10);
    double hits = counter("hits");
    double misses = counter("misses");

    List<JsonNode> open = pages(NS, from, to, 2);
    assertThat(open).hasSize(3);
    assertThat(counter("hits") + counter("misses"))
        .as("a range inside the write window is not a cacheable read")
        .isEqualTo(hits + misses);

    clock.advance(Duration.ofHours(2)); // the range's end is now older than 1 h plus the margin
    List<JsonNode> first = pages(NS, from, to, 2);
    assertThat(first).as("read from Cassandra").isEqualTo(open);
    assertThat(counter("misses") - misses)
        .as("pages read from Cassandra")
        .isGreaterThanOrEqualTo(3);
    // Once the clock has moved, the maintainer may record the slice's new state once (a cache key
    // of its own): a page read before and one read after it are two keys. Read again until a whole
    // read is answered from the cache; each read must equal the first.
    List<JsonNode> second;
    double hitsBefore;
    double missesBefore;
    int reads = 0;
    do {
      hitsBefore = counter("hits");
      missesBefore = counter("misses");
      second = pages(NS, from, to, 2);
      assertThat(second).as("read again").isEqualTo(first);
    } while (counter("misses") > missesBefore && ++reads < 5);
    assertThat(counter("misses") - missesBefore).as("a read answered from the cache").isZero();
    assertThat(counter("hits") - hitsBefore).isEqualTo(3);
    assertThat(server.metric("varve_timeseries_read_cache_bytes")).isPositive();
    List<String> all = new ArrayList<>();
    second.forEach(p -> all.addAll(ids(p)));
    assertThat(all).containsExactly("e4", "e3", "e2", "e1", "e0");
  }

  @Test
  void an_event_accepted_at_the_windows_edge_and_written_late_is_never_hidden_by_a_cached_page()
      throws Exception {
    create(
        EDGE,
        ", \"queueBuffering\": {\"coalesce\": \"8s\"}",
        ", \"lifecycleConfigs\": {\"lifecycleConfig\": [{\"type\": \"retention\","
            + " \"config\": {\"close_after\": \"3h\"}}]}");
    // accepted a second inside the write window, then held in the fire-and-forget queue for 8 s
    Instant now = clock.instant();
    Instant e = now.minus(Duration.ofHours(1)).plusSeconds(1).truncatedTo(ChronoUnit.MILLIS);
    TestServer.Reply queued =
        server.post("WriteEventRecords", write(EDGE, List.of(event("s", e, "edge", "k", "v"))));
    assertThat(queued.status()).as(queued.body().toString()).isEqualTo(200);

    // the accept limit alone now says the range cannot change: the event is outside the window
    clock.advance(Duration.ofSeconds(5));
    Instant from = e.minusSeconds(1);
    Instant to = e.plusMillis(1);
    assertThat(ids(server.post("ReadEventRecords", read(EDGE, "s", from, to)).body()))
        .as("not landed yet")
        .isEmpty();

    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    List<String> found = List.of();
    while (found.isEmpty() && System.nanoTime() < deadline) {
      Thread.sleep(200); // between reads, while the queue coalesces
      found = ids(server.post("ReadEventRecords", read(EDGE, "s", from, to)).body());
    }
    assertThat(found)
        .as("the late event is read, not a page cached before it landed")
        .containsExactly("edge");

    clock.advance(Duration.ofMinutes(10)); // past the margin: cached from now on, with the event
    double hits = counter("hits");
    assertThat(ids(server.post("ReadEventRecords", read(EDGE, "s", from, to)).body()))
        .containsExactly("edge");
    assertThat(ids(server.post("ReadEventRecords", read(EDGE, "s", from, to)).body()))
        .containsExactly("edge");
    assertThat(counter("hits") - hits).isEqualTo(1);

    // retention closes the slice as time passes, no UpdateNamespace: its cached page is not served
    clock.advance(Duration.ofHours(4));
    long closing = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    List<String> after = List.of("edge");
    while (!after.isEmpty() && System.nanoTime() < closing) {
      after = ids(server.post("ReadEventRecords", read(EDGE, "s", from, to)).body());
      Thread.sleep(200); // between reads, while the maintainer closes the slice
    }
    assertThat(after).as("a closed slice is not read, cached or not").isEmpty();
  }
}
