package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.varve.local.testing.TestCassandra;
import io.varve.local.testing.TestOpenSearch;
import io.varve.opensearch.OpenSearchSettings;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Test;

/**
 * The index store's queue is bounded by the heap its events hold, not only by their count: with the
 * real local OpenSearch behind a proxy that holds its answers (a slow index store), durable writes
 * of large events fill the queue to {@code opensearch.queueBytes} and no further; the writes all
 * succeed, the events beyond the bound are counted as dropped (a backfill indexes them), and once
 * the store answers again the queue drains and its bytes return to zero.
 */
class IndexQueueBoundIT {

  static final String NS = "index_queue_bound_it";
  static final long QUEUE_BYTES = 1L << 20;
  static final long BULK_BYTES = 256L << 10;
  static final int REQUESTS = 20;
  static final int EVENTS_PER_REQUEST = 20;
  static final int PAYLOAD_CHARS = 16 * 1024;

  @Test
  void a_slow_index_store_fills_the_queue_to_its_bytes_and_no_further() throws Exception {
    URI os = URI.create(TestOpenSearch.endpoint());
    String dataset = "index-queue-bound-" + ProcessHandle.current().pid();
    try (DelayingProxy proxy =
        new DelayingProxy(new InetSocketAddress(os.getHost(), os.getPort()))) {
      OpenSearchSettings indexing =
          new OpenSearchSettings(
              List.of(URI.create("http://127.0.0.1:" + proxy.address().getPort())),
              Optional.empty(),
              Optional.empty(),
              Optional.empty(),
              Duration.ofMinutes(2),
              100_000, // a count far above what the bytes let in
              QUEUE_BYTES,
              1000,
              BULK_BYTES,
              1);
      try (TestServer server =
          new TestServer(
              ServerSettings.defaults().toBuilder().opensearch(indexing).build(),
              java.time.Clock.systemUTC(),
              "varve_index_queue_bound_it",
              session -> {},
              TestCassandra.contactPoint(),
              NS)) {
        TestServer.Reply created = server.post("CreateNamespace", namespace(dataset));
        assertThat(created.status()).as(created.body().toString()).isEqualTo(200);

        // answers from now on are held 15 s: the first bulk request waits, the queue fills
        proxy.delay(Duration.ofSeconds(15));
        Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        String payload = "x".repeat(PAYLOAD_CHARS);
        for (int r = 0; r < REQUESTS; r++) {
          List<ObjectNode> events = new ArrayList<>();
          for (int i = 0; i < EVENTS_PER_REQUEST; i++) {
            events.add(
                Events.event(
                    "series-" + (i % 4),
                    now.minusSeconds(r * EVENTS_PER_REQUEST + i + 1),
                    "e-" + r + "-" + i,
                    "deviceType",
                    "ios",
                    "payload",
                    payload));
          }
          TestServer.Reply written = server.post("WriteEventRecordsSync", Events.write(NS, events));
          assertThat(written.status())
              .as(
                  "a write never waits for nor fails because of the index store: %s",
                  written.body())
              .isEqualTo(200);
          assertThat(server.metric("varve_index_queue_bytes"))
              .as("the queue's heap, with the bulk request in flight, after request %d", r)
              .isLessThanOrEqualTo(QUEUE_BYTES);
        }
        int total = REQUESTS * EVENTS_PER_REQUEST;
        double dropped = server.metric("varve_index_dropped_events_total", NS);
        double held = server.metric("varve_index_queue_bytes");
        assertThat(held).as("the queue holds events up to its bytes").isPositive();
        // each event holds more than its 16 Ki characters: at most 1 MiB / 16 KiB of them fit
        assertThat(dropped)
            .as("events beyond the queue's bytes are dropped and counted, not held")
            .isGreaterThanOrEqualTo(total - (double) QUEUE_BYTES / PAYLOAD_CHARS);

        // the store answers again: what was queued is indexed, and the queue's bytes are given back
        proxy.delay(Duration.ZERO);
        await(() -> server.metric("varve_index_queue_bytes") == 0, 60);
        await(() -> server.metric("varve_index_indexed_events_total") + dropped == total, 60);
        assertThat(server.metric("varve_index_queue_events")).isZero();
      }
    }
  }

  static String namespace(String dataset) {
    return "{\"namespace\": \""
        + NS
        + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", \"physicalStorage\":"
        + " {\"dataset\": \""
        + NS
        + "\"}, \"config\": {\"timePartition\": {\"secondsPerTimeSlice\": 3600,"
        + " \"secondsPerTimeBucket\": 600, \"eventBuckets\": 4}, \"acceptLimit\": \"14400s\"}},"
        + " {\"id\": \"INDEX_STORAGE\", \"physicalStorage\": {\"type\": \"OPENSEARCH\","
        + " \"dataset\": \""
        + dataset
        + "\"}, \"config\": {\"timePartition\": {\"secondsPerSlice\": 3600}, \"acceptLimit\":"
        + " \"14400s\", \"indexConfig\": {\"fieldMapping\": {\"deviceType\": \"KEYWORD\"},"
        + " \"refreshInterval\": \"1s\", \"documentMode\": \"REVERSE_INDEX\"}}}]}";
  }

  static void await(BooleanSupplier condition, int seconds) throws InterruptedException {
    long end = System.nanoTime() + Duration.ofSeconds(seconds).toNanos();
    while (!condition.getAsBoolean()) {
      assertThat(System.nanoTime()).as("still not true after %d s", seconds).isLessThan(end);
      Thread.sleep(200);
    }
  }
}
