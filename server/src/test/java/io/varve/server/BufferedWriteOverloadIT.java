package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.server.admission.AdmissionSettings;
import io.varve.server.config.ServerSettings;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The fire-and-forget queue under load it cannot take, and at a graceful stop. Writes to Cassandra
 * are squeezed (one batch of at most 1 MiB in flight) so that the queue fills on any machine.
 */
class BufferedWriteOverloadIT {

  static final Instant T = Instant.now().truncatedTo(ChronoUnit.SECONDS).minusSeconds(120);

  static void create(TestServer server, String ns, String buffering) {
    TestServer.Reply reply =
        server.post(
            "CreateNamespace",
            """
            {"namespace": "%s", "persistenceConfiguration": [{"id": "PRIMARY_STORAGE",
              "config": {"queueBuffering": %s}}]}"""
                .formatted(ns, buffering));
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
  }

  static ObjectNode request(String ns, String series, int first, int count, int valueBytes) {
    ObjectNode body = TestServer.JSON.createObjectNode().put("namespace", ns);
    ArrayNode events = body.putArray("events");
    for (int i = first; i < first + count; i++) {
      ObjectNode e = events.addObject();
      e.put("timeSeriesId", series)
          .put("eventTime", T.plusMillis(i).toString())
          .put("eventId", "e" + i);
      e.putArray("eventItems")
          .addObject()
          .put(
              "eventItemKey",
              Base64.getEncoder().encodeToString("k".getBytes(StandardCharsets.UTF_8)))
          .put("eventItemValue", Base64.getEncoder().encodeToString(new byte[valueBytes]));
    }
    return body;
  }

  /** Event ids stored in every table of {@code keyspace}, read with CQL. */
  static Set<String> stored(TestServer server, String keyspace) {
    Set<String> ids = new HashSet<>();
    for (Row table :
        server.cql.execute(
            SimpleStatement.newInstance(
                "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", keyspace))) {
      for (Row row :
          server.cql.execute(
              SimpleStatement.newInstance(
                      "SELECT event_id FROM " + keyspace + "." + table.getString(0))
                  .setTimeout(Duration.ofSeconds(30)))) {
        ids.add(row.getString(0));
      }
    }
    return ids;
  }

  @Test
  void a_full_queue_refuses_with_429_and_every_accepted_event_is_written() throws Exception {
    String ns = "buffer_overload_it";
    try (TestServer server =
        new TestServer(WriteBacklogIT.squeezedWrites(), "varve_buffer_overload_it", ns)) {
      create(server, ns, "{\"coalesce\": \"100ms\", \"bufferCapacity\": 262144}");
      // 8 writers, 40 requests each of 4 events of 8 KiB: far more than the queue holds
      ExecutorService pool = Executors.newFixedThreadPool(8);
      Set<String> accepted = ConcurrentHashMap.newKeySet();
      Set<String> refused = ConcurrentHashMap.newKeySet();
      List<Future<?>> writers = new ArrayList<>();
      for (int w = 0; w < 8; w++) {
        int writer = w;
        writers.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < 40; r++) {
                    int first = (writer * 40 + r) * 4;
                    TestServer.Reply reply =
                        server.post("WriteEventRecords", request(ns, "flood", first, 4, 8192));
                    Set<String> into =
                        switch (reply.status()) {
                          case 200 -> accepted;
                          case 429 -> refused;
                          default ->
                              throw new AssertionError(
                                  "answered " + reply.status() + " " + reply.body());
                        };
                    if (reply.status() == 429) {
                      assertThat(reply.body().path("error").path("code").asText())
                          .isEqualTo("RESOURCE_EXHAUSTED");
                    }
                    for (int i = first; i < first + 4; i++) {
                      into.add("e" + i);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : writers) {
        f.get(5, TimeUnit.MINUTES);
      }
      pool.shutdown();
      assertThat(refused).as("requests refused while the queue was full").isNotEmpty();
      assertThat(accepted).isNotEmpty();
      // the queue drains, and takes writes again
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      Set<String> stored = stored(server, ns);
      while (!stored.containsAll(accepted) && System.nanoTime() < deadline) {
        Thread.sleep(250);
        stored = stored(server, ns);
      }
      assertThat(stored).as("every accepted event written, no refused one").isEqualTo(accepted);
      assertThat(server.post("WriteEventRecords", request(ns, "after", 100_000, 4, 8192)).status())
          .isEqualTo(200);
    }
  }

  @Test
  void a_full_server_buffer_refuses_a_fire_and_forget_write_before_reading_its_body()
      throws Exception {
    // a server buffer of 1 MiB, filled by events Cassandra refuses (three replicas wanted of the
    // one node): while it is full, a body is refused unread, so a malformed one gets 429, not 400
    String ns = "buffer_unread_it";
    ServerSettings settings =
        ServerSettings.defaults().toBuilder()
            .admission(
                new AdmissionSettings(
                    AdmissionSettings.autoWriteBytes(),
                    AdmissionSettings.autoReadBytes(),
                    AdmissionSettings.DEFAULT_MAX_WRITE_QUEUE_DELAY,
                    1024 * 1024,
                    Duration.ofMinutes(5)))
            .build();
    try (TestServer server = new TestServer(settings, "varve_buffer_unread_it", ns)) {
      create(server, ns, "{\"coalesce\": \"20ms\", \"bufferCapacity\": 8388608}");
      BufferedWriteRetryIT.replicas(server, ns, 3);
      String malformed = "{\"namespace\": \"" + ns + "\", \"events\": [{\"timeSeriesId\": ";
      assertThat(server.post("WriteEventRecords", malformed).status())
          .as("with room in the buffer the body is read, and refused as malformed")
          .isEqualTo(400);
      int accepted = 0;
      TestServer.Reply reply = server.post("WriteEventRecords", request(ns, "fill", 0, 8, 4096));
      for (int r = 1; reply.status() == 200; r++) {
        assertThat(r).as("requests of 32 KiB until 1 MiB is full").isLessThan(100);
        accepted++;
        reply = server.post("WriteEventRecords", request(ns, "fill", r * 8, 8, 4096));
      }
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(429);
      assertThat(accepted).isGreaterThan(10);

      TestServer.Reply unread = server.post("WriteEventRecords", malformed);
      assertThat(unread.status()).as(unread.body().toString()).isEqualTo(429);
      assertThat(unread.body().path("error").path("code").asText()).isEqualTo("RESOURCE_EXHAUSTED");
      assertThat(unread.errorMessage()).contains("write buffer is full");
      assertThat(server.metricsText())
          .as("counted as refused by admission, for a full buffer")
          .containsPattern(
              "varve_admission_refused_total\\{budget=\"write\",reason=\"buffer_full\","
                  + "transport=\"json\",?\\} [1-9]");
      assertThat(server.post("WriteEventRecordsSync", request(ns, "sync", 0, 1, 16)).status())
          .as("durable writes do not use the buffer")
          .isNotEqualTo(429);

      // Cassandra takes the writes again: the buffer drains and reads bodies again
      BufferedWriteRetryIT.replicas(server, ns, 1);
      long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
      int status = server.post("WriteEventRecords", request(ns, "after", 0, 8, 4096)).status();
      while (status != 200 && System.nanoTime() < deadline) {
        Thread.sleep(250);
        status = server.post("WriteEventRecords", request(ns, "after", 0, 8, 4096)).status();
      }
      assertThat(status).isEqualTo(200);
    }
  }

  @Test
  void many_namespaces_flooded_at_once_hold_no_more_than_the_server_buffer() throws Exception {
    // six namespaces whose queues could each take 8 MiB, on a server whose fire-and-forget
    // buffer holds 1 MiB in all: the server's bound is what holds
    List<String> namespaces = new ArrayList<>();
    for (int n = 0; n < 6; n++) {
      namespaces.add("buffer_many_it_" + n);
    }
    long bound = 1024 * 1024;
    ServerSettings settings =
        WriteBacklogIT.squeezedWrites().toBuilder()
            .admission(
                new AdmissionSettings(
                    AdmissionSettings.autoWriteBytes(),
                    AdmissionSettings.autoReadBytes(),
                    AdmissionSettings.DEFAULT_MAX_WRITE_QUEUE_DELAY,
                    bound,
                    AdmissionSettings.DEFAULT_BUFFERED_WRITE_RETRY))
            .build();
    try (TestServer server =
        new TestServer(settings, "varve_buffer_many_it", namespaces.toArray(String[]::new))) {
      for (String ns : namespaces) {
        create(server, ns, "{\"coalesce\": \"100ms\", \"bufferCapacity\": 8388608}");
      }
      ExecutorService pool = Executors.newFixedThreadPool(namespaces.size() + 1);
      Map<String, Set<String>> accepted = new ConcurrentHashMap<>();
      AtomicInteger refused = new AtomicInteger();
      AtomicBoolean flooding = new AtomicBoolean(true);
      // what the buffer held, sampled while the writers flood it
      Future<Double> largest =
          pool.submit(
              () -> {
                double max = 0;
                while (flooding.get()) {
                  max = Math.max(max, server.metric("varve_buffer_bytes"));
                  Thread.sleep(20);
                }
                return max;
              });
      List<Future<?>> writers = new ArrayList<>();
      for (String ns : namespaces) {
        Set<String> mine = ConcurrentHashMap.newKeySet();
        accepted.put(ns, mine);
        writers.add(
            pool.submit(
                () -> {
                  for (int r = 0; r < 40; r++) {
                    TestServer.Reply reply =
                        server.post("WriteEventRecords", request(ns, "flood", r * 4, 4, 8192));
                    if (reply.status() == 200) {
                      for (int i = r * 4; i < r * 4 + 4; i++) {
                        mine.add("e" + i);
                      }
                    } else {
                      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(429);
                      refused.incrementAndGet();
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : writers) {
        f.get(5, TimeUnit.MINUTES);
      }
      flooding.set(false);
      assertThat(largest.get(1, TimeUnit.MINUTES))
          .as("bytes the buffer held at most, all namespaces (server bound %d)", bound)
          .isLessThanOrEqualTo(bound);
      pool.shutdown();
      assertThat(refused.get()).as("requests refused while the buffer was full").isPositive();
      // every namespace got some of the buffer, and what each was told was accepted is written
      long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
      for (String ns : namespaces) {
        assertThat(accepted.get(ns)).as("accepted in %s", ns).isNotEmpty();
        Set<String> stored = stored(server, ns);
        while (!stored.containsAll(accepted.get(ns)) && System.nanoTime() < deadline) {
          Thread.sleep(250);
          stored = stored(server, ns);
        }
        assertThat(stored).as("written in %s", ns).isEqualTo(accepted.get(ns));
      }
    }
  }

  @Test
  void a_graceful_stop_writes_everything_queued_paced_or_not() throws Exception {
    String ns = "buffer_shutdown_it";
    String paced = "buffer_shutdown_paced_it";
    TestServer server =
        new TestServer(WriteBacklogIT.squeezedWrites(), "varve_buffer_shutdown_it", ns, paced);
    Set<String> sent = new HashSet<>();
    try {
      // a minute's coalescing: nothing is written before the stop unless the queue fills half way
      create(server, ns, "{\"coalesce\": \"60s\", \"bufferCapacity\": 67108864}");
      // 10 events a second: the 1,000 queued would take 100 s, longer than the stop's 30 s
      create(server, paced, "{\"coalesce\": \"10ms\", \"drainRate\": 10}");
      for (int r = 0; r < 50; r++) {
        for (String namespace : List.of(ns, paced)) {
          TestServer.Reply reply =
              server.post("WriteEventRecords", request(namespace, "s" + (r % 7), r * 20, 20, 512));
          assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
        }
        for (int i = r * 20; i < r * 20 + 20; i++) {
          sent.add("e" + i);
        }
      }
      assertThat(stored(server, ns)).as("still queued before the stop").isEmpty();
      assertThat(stored(server, paced).size()).as("paced, before the stop").isLessThan(200);
    } finally {
      server.server.close();
    }
    try {
      assertThat(stored(server, ns)).isEqualTo(sent);
      assertThat(stored(server, paced)).as("a stopping server drains unpaced").isEqualTo(sent);
    } finally {
      server.cql.close();
    }
  }
}
