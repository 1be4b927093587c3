package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.server.admission.AdmissionSettings;
import io.varve.server.config.ServerSettings;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The fire-and-forget drain when Cassandra really refuses its writes: the namespace's keyspace is
 * altered to three replicas on the one-node test cluster, so every write at LOCAL_QUORUM is refused
 * as unavailable (two replicas needed, one alive) until it is altered back.
 */
class BufferedWriteRetryIT {

  static final String RECOVER = "buffer_retry_it";
  static final String STEADY = "buffer_steady_it";
  static final String DROP = "buffer_drop_it";
  static final Instant NOW = Instant.now().truncatedTo(ChronoUnit.SECONDS);

  @Test
  void events_refused_while_replicas_are_missing_are_written_once_they_return() throws Exception {
    try (TestServer server = new TestServer("varve_buffer_retry_it", RECOVER, STEADY)) {
      create(server, RECOVER);
      create(server, STEADY);
      replicas(server, RECOVER, 3);
      Set<String> sent = writeAll(server, RECOVER, 4, 50);
      writeAll(server, STEADY, 1, 50);

      // a refused slice is written again after a pause, and again, not dropped
      await(() -> metric(server, "varve_buffer_retried_events_total", RECOVER) >= 2 * 200, 20);
      assertThat(metric(server, "varve_buffer_written_events_total", RECOVER)).isZero();
      assertThat(metric(server, "varve_buffer_dropped_events_total", RECOVER)).isZero();
      assertThat(metric(server, "varve_buffer_queue_events", RECOVER) > 0)
          .as("the refused events are still held")
          .isTrue();
      // the failing namespace holds up no other
      await(() -> metric(server, "varve_buffer_written_events_total", STEADY) == 50, 20);

      replicas(server, RECOVER, 1);
      await(() -> metric(server, "varve_buffer_written_events_total", RECOVER) == 200, 30);
      assertThat(metric(server, "varve_buffer_dropped_events_total", RECOVER)).isZero();
      assertThat(readAll(server, RECOVER)).isEqualTo(sent);
    }
  }

  @Test
  void events_still_refused_after_the_retry_window_are_dropped_counted_and_reported()
      throws Exception {
    ServerSettings settings =
        ServerSettings.defaults().toBuilder()
            .admission(
                new AdmissionSettings(
                    AdmissionSettings.autoWriteBytes(),
                    AdmissionSettings.autoReadBytes(),
                    AdmissionSettings.DEFAULT_MAX_WRITE_QUEUE_DELAY,
                    AdmissionSettings.autoBufferedWriteBytes(),
                    Duration.ofSeconds(1)))
            .build();
    try (TestServer server = new TestServer(settings, "varve_buffer_drop_it", DROP)) {
      create(server, DROP);
      replicas(server, DROP, 3);
      writeAll(server, DROP, 2, 50);
      await(() -> metric(server, "varve_buffer_dropped_events_total", DROP) == 100, 20);
      assertThat(metric(server, "varve_buffer_written_events_total", DROP)).isZero();
      assertThat(metric(server, "varve_buffer_retried_events_total", DROP))
          .as("written again within the window before being dropped")
          .isGreaterThanOrEqualTo(100);
      JsonNode worker = health(server).path("workers").path("write-buffer");
      assertThat(worker.toString()).contains("fire-and-forget events dropped");

      // the queue keeps working once Cassandra takes writes again
      replicas(server, DROP, 1);
      Set<String> later = writeAll(server, DROP, 1, 10);
      await(() -> metric(server, "varve_buffer_written_events_total", DROP) == 10, 20);
      assertThat(readAll(server, DROP)).isEqualTo(later);
    }
  }

  static void create(TestServer server, String ns) {
    TestServer.Reply reply =
        server.post(
            "CreateNamespace",
            """
            {"namespace": "%s", "persistenceConfiguration": [{"id": "PRIMARY_STORAGE",
              "config": {"queueBuffering": {"coalesce": "20ms"}}}]}"""
                .formatted(ns));
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
  }

  static void replicas(TestServer server, String keyspace, int factor) {
    server.cql.execute(
        SimpleStatement.newInstance(
                "ALTER KEYSPACE "
                    + keyspace
                    + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': "
                    + factor
                    + "}")
            .setTimeout(Duration.ofSeconds(30)));
  }

  /**
   * {@code requests} WriteEventRecords of {@code perRequest} events over five series, each answered
   * as queued; the ids sent. Ids are unique per namespace and call, so later calls add events.
   */
  static Set<String> writeAll(TestServer server, String ns, int requests, int perRequest) {
    Set<String> sent = new HashSet<>();
    String call = Long.toString(System.nanoTime(), 36);
    for (int r = 0; r < requests; r++) {
      ObjectNode body = TestServer.JSON.createObjectNode().put("namespace", ns);
      ArrayNode events = body.putArray("events");
      for (int i = 0; i < perRequest; i++) {
        String id = call + "-" + r + "-" + i;
        sent.add(id);
        ObjectNode e = events.addObject();
        e.put("timeSeriesId", "s" + (i % 5))
            .put("eventTime", NOW.minusSeconds(60).plusMillis(r * 100L + i).toString())
            .put("eventId", id);
        e.putArray("eventItems")
            .addObject()
            .put("eventItemKey", "aw==")
            .put("eventItemValue", "dg==");
      }
      TestServer.Reply reply = server.post("WriteEventRecords", body);
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
      assertThat(reply.body().path("queuedCount").asInt()).isEqualTo(perRequest);
    }
    return sent;
  }

  /** Every event id of the five series. */
  static Set<String> readAll(TestServer server, String ns) {
    Set<String> ids = new HashSet<>();
    for (int s = 0; s < 5; s++) {
      ids.addAll(BufferedWriteIT.read(server, ns, "s" + s, NOW.minusSeconds(120), NOW));
    }
    return ids;
  }

  /** A metric of one namespace from {@code /metrics}; 0 when it is not there yet. */
  static double metric(TestServer server, String name, String ns) {
    return server.metric(name, ns);
  }

  static JsonNode health(TestServer server) throws Exception {
    return TestServer.JSON.readTree(get(server, "/health"));
  }

  static String get(TestServer server, String path) {
    try {
      return TestHttp.client()
          .send(
              HttpRequest.newBuilder(URI.create(server.base() + path)).build(),
              HttpResponse.BodyHandlers.ofString())
          .body();
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  static void await(BooleanSupplier condition, int seconds) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime() < deadline).as("within " + seconds + " s").isTrue();
      Thread.sleep(100);
    }
  }
}
