package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WriteEventRecords, the fire-and-forget write: answered once queued, written after the namespace's
 * coalesce, every queued event readable once drained; what the queue cannot take is refused whole,
 * naming why.
 */
class BufferedWriteIT {

  static final String NS = "buffered_it";
  static final String DURABLE = "buffered_durable_it";
  static final String SMALL = "buffered_small_it";
  static final String PACED = "buffered_paced_it";
  static final String REPACED = "buffered_repaced_it";
  static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);
  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_buffered_it", NS, DURABLE, SMALL, PACED, REPACED);
    create(NS, "{\"coalesce\": \"200ms\"}");
    create(DURABLE, "{\"bufferCapacity\": 0}");
    create(SMALL, "{\"bufferCapacity\": 4096}");
    create(PACED, "{\"coalesce\": \"10ms\", \"drainRate\": 400}");
    create(REPACED, "{\"coalesce\": \"10ms\", \"drainRate\": 50}");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static void create(String ns, String buffering) {
    TestServer.Reply reply = configure("CreateNamespace", ns, buffering);
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
  }

  /** CreateNamespace or UpdateNamespace of {@code ns} with this {@code queueBuffering}. */
  static TestServer.Reply configure(String rpc, String ns, String buffering) {
    return server.post(
        rpc,
        """
        {"namespace": "%s", "persistenceConfiguration": [{"id": "PRIMARY_STORAGE",
          "config": {"queueBuffering": %s}}]}"""
            .formatted(ns, buffering));
  }

  static ObjectNode event(String series, Instant time, String id, int valueBytes) {
    ObjectNode e = TestServer.JSON.createObjectNode();
    e.put("timeSeriesId", series).put("eventTime", time.toString()).put("eventId", id);
    e.putArray("eventItems")
        .addObject()
        .put(
            "eventItemKey",
            Base64.getEncoder().encodeToString("k".getBytes(StandardCharsets.UTF_8)))
        .put("eventItemValue", Base64.getEncoder().encodeToString(new byte[valueBytes]));
    return e;
  }

  static TestServer.Reply write(String rpc, String ns, List<ObjectNode> events) {
    ObjectNode body = TestServer.JSON.createObjectNode().put("namespace", ns);
    ArrayNode array = body.putArray("events");
    events.forEach(array::add);
    return server.post(rpc, body);
  }

  /** The event ids of one series in [from, to), every page. */
  static List<String> read(String ns, String series, Instant from, Instant to) {
    return read(server, ns, series, from, to);
  }

  /** The same, from {@code server}. */
  static List<String> read(TestServer server, String ns, String series, Instant from, Instant to) {
    List<String> ids = new ArrayList<>();
    String token = "";
    do {
      TestServer.Reply reply =
          server.post(
              "ReadEventRecords",
              """
              {"namespace": "%s", "timeSeriesId": "%s", "pageSize": 1000, "pageToken": "%s",
               "timeInterval": {"start": "%s", "end": "%s"}}"""
                  .formatted(ns, series, token, from, to));
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
      reply.body().path("events").forEach(e -> ids.add(e.path("eventId").asText()));
      token = reply.body().path("nextPageToken").asText();
    } while (!token.isEmpty());
    return ids;
  }

  static String metrics() throws Exception {
    return TestHttp.client()
        .send(
            HttpRequest.newBuilder(URI.create(server.base() + "/metrics")).build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  @Test
  void fire_and_forget_events_are_all_readable_once_drained() throws Exception {
    Instant t = NOW.minusSeconds(60);
    Set<String> sent = new HashSet<>();
    for (int r = 0; r < 20; r++) {
      List<ObjectNode> events = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        String id = "r" + r + "-" + i;
        sent.add(id);
        // five series, events of one series spread over requests: coalesced by partition
        events.add(event("s" + (i % 5), t.plusMillis(r * 50L + i), id, 100));
      }
      TestServer.Reply reply = write("WriteEventRecords", NS, events);
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
      assertThat(reply.body().path("queuedCount").asInt()).isEqualTo(50);
      assertThat(reply.body().path("errors").isEmpty()).isTrue();
    }
    List<String> found = new ArrayList<>();
    long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
    while (System.nanoTime() < deadline) {
      found.clear();
      for (int s = 0; s < 5; s++) {
        found.addAll(read(NS, "s" + s, t, t.plusSeconds(10)));
      }
      if (found.size() >= sent.size()) {
        break;
      }
      Thread.sleep(200);
    }
    assertThat(found).hasSize(sent.size());
    assertThat(new HashSet<>(found)).isEqualTo(sent);
    assertThat(metrics())
        .containsPattern(
            "varve_buffer_written_events_total\\{namespace=\"" + NS + "\",?\\} 1000\\.0");
  }

  /** The namespace's {@code varve_buffer_written_events_total}; 0 before its first write. */
  static long written(String ns) {
    return (long) server.metric("varve_buffer_written_events_total", ns);
  }

  /** The write buffer's drainer's completed cycles ({@code varve_background_cycles_total}). */
  static double drainerCycles() throws Exception {
    java.util.regex.Matcher m =
        java.util.regex.Pattern.compile(
                "(?m)^varve_background_cycles_total\\{worker=\"write-buffer\",?\\} ([0-9.eE+-]+)$")
            .matcher(metrics());
    assertThat(m.find()).as("the write buffer's cycles in /metrics").isTrue();
    return Double.parseDouble(m.group(1));
  }

  @Test
  void an_idle_drainer_looks_once_a_second_and_a_queued_write_wakes_it_at_once() throws Exception {
    TestServer.await("nothing queued", () -> server.metric("varve_buffer_bytes") == 0);
    Thread.sleep(1_200); // for the drainer to find nothing held and idle
    double before = drainerCycles();
    Thread.sleep(2_000); // two idle ticks
    assertThat(drainerCycles() - before)
        .as("cycles in 2 s while idle (200 at 10 ms)")
        .isLessThan(6);

    // coalesced for 10 ms: written within a few ticks of its arrival, not at the next idle tick
    Instant t = NOW.minusSeconds(30);
    for (int round = 0; round < 3; round++) {
      Thread.sleep(1_200);
      long writtenBefore = written(PACED);
      long queued = System.nanoTime();
      TestServer.Reply reply =
          write(
              "WriteEventRecords",
              PACED,
              List.of(event("idle", t.plusMillis(round), "i" + round, 10)));
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
      TestServer.await("the event written", () -> written(PACED) > writtenBefore);
      assertThat(Duration.ofNanos(System.nanoTime() - queued))
          .as("from queued to written after an idle second, round " + round)
          .isLessThan(Duration.ofMillis(500));
    }
    assertThat(read(PACED, "idle", t, t.plusSeconds(1)))
        .containsExactlyInAnyOrder("i0", "i1", "i2");
  }

  @Test
  void a_paced_namespace_writes_a_burst_at_its_drain_rate_and_loses_none() throws Exception {
    Instant t = NOW.minusSeconds(120);
    long start = System.nanoTime();
    for (int r = 0; r < 20; r++) {
      List<ObjectNode> events = new ArrayList<>();
      for (int i = 0; i < 100; i++) {
        events.add(event("p" + (i % 4), t.plusMillis(r * 100L + i), "p" + r + "-" + i, 50));
      }
      TestServer.Reply reply = write("WriteEventRecords", PACED, events);
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    }
    // 2,000 events queued at once at 400 a second: never more than the rate since the first write
    // plus the pace's slack (a fifth of a second) and one slice (a tenth), so about 5 s to drain
    long written = 0;
    long deadline = start + Duration.ofSeconds(60).toNanos();
    while (written < 2_000 && System.nanoTime() < deadline) {
      Thread.sleep(100);
      written = written(PACED);
      double elapsed = (System.nanoTime() - start) / 1e9;
      assertThat(written)
          .as("written after %.2f s", elapsed)
          .isLessThanOrEqualTo(Math.round(400 * elapsed) + 80 + 40);
    }
    assertThat(written).isEqualTo(2_000);
    assertThat((System.nanoTime() - start) / 1e9).isGreaterThan((2_000 - 120) / 400.0);
    List<String> found = new ArrayList<>();
    for (int s = 0; s < 4; s++) {
      found.addAll(read(PACED, "p" + s, t, t.plusSeconds(10)));
    }
    assertThat(new HashSet<>(found)).hasSize(2_000);
  }

  @Test
  void an_update_of_the_drain_rate_applies_to_what_is_queued_without_a_further_write()
      throws Exception {
    Instant t = NOW.minusSeconds(180);
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < 1_000; i++) {
      events.add(event("q", t.plusMillis(i), "q" + i, 20));
    }
    assertThat(write("WriteEventRecords", REPACED, events).status()).isEqualTo(200);
    Thread.sleep(1_000);
    // at 50 a second, 1,000 events would take 20 s
    assertThat(written(REPACED)).isLessThan(200);
    TestServer.Reply update = configure("UpdateNamespace", REPACED, "{\"coalesce\": \"10ms\"}");
    assertThat(update.status()).as(update.body().toString()).isEqualTo(200);
    assertThat(update.body().toString()).doesNotContain("drainRate");
    long deadline = System.nanoTime() + Duration.ofSeconds(8).toNanos();
    while (written(REPACED) < 1_000 && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(written(REPACED)).isEqualTo(1_000);
  }

  @Test
  void a_drain_rate_out_of_bounds_is_refused_naming_it() {
    for (String rate : List.of("-1", "10000001")) {
      TestServer.Reply reply =
          configure("CreateNamespace", "buffered_bad_rate_it", "{\"drainRate\": " + rate + "}");
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(400);
      assertThat(reply.body().toString())
          .contains("queueBuffering.drainRate")
          .contains(rate)
          .contains("events per second");
    }
  }

  @Test
  void events_outside_the_write_window_are_reported_and_the_others_queued() {
    TestServer.Reply reply =
        write(
            "WriteEventRecords",
            NS,
            List.of(
                event("window", NOW.minusSeconds(30), "fine", 10),
                event("window", NOW.minus(Duration.ofDays(30)), "too-old", 10)));
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    assertThat(reply.body().path("queuedCount").asInt()).isEqualTo(1);
    assertThat(reply.body().path("queuedIndexes").get(0).asInt()).isZero();
    JsonNode error = reply.body().path("errors").get(0);
    assertThat(error.path("index").asInt()).isEqualTo(1);
    assertThat(error.path("code").asText()).isEqualTo("FAILED_PRECONDITION");
  }

  @Test
  void a_namespace_with_no_buffer_takes_durable_writes_only() {
    List<ObjectNode> events = List.of(event("d", NOW.minusSeconds(10), "one", 10));
    TestServer.Reply reply = write("WriteEventRecords", DURABLE, events);
    assertThat(reply.status()).isEqualTo(412);
    assertThat(reply.errorMessage())
        .contains("bufferCapacity is 0")
        .contains("WriteEventRecordsSync");
    assertThat(write("WriteEventRecordsSync", DURABLE, events).status()).isEqualTo(200);
  }

  @Test
  void a_request_larger_than_the_namespace_queue_is_refused_naming_events() {
    List<ObjectNode> events = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      events.add(event("big", NOW.minusSeconds(10), "e" + i, 1024));
    }
    TestServer.Reply reply = write("WriteEventRecords", SMALL, events);
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.errorField()).isEqualTo("events");
    assertThat(reply.errorMessage()).contains("bufferCapacity (4096 bytes)");
    assertThat(read(SMALL, "big", NOW.minusSeconds(60), NOW.plusSeconds(60))).isEmpty();
  }

  @Test
  void a_malformed_event_refuses_the_whole_request() {
    ObjectNode bad = event("m", NOW.minusSeconds(10), "", 10);
    TestServer.Reply reply =
        write("WriteEventRecords", NS, List.of(event("m", NOW.minusSeconds(10), "ok", 10), bad));
    assertThat(reply.status()).isEqualTo(400);
    assertThat(reply.errorField()).isEqualTo("events[1].eventId");
  }
}
