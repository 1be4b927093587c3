package io.varve.server;

import static io.varve.server.Events.event;
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
import java.util.TreeSet;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Partition histograms on the real test Cassandra, the server's clock moved forward: skewed data
 * (one dense series among sparse ones) in a slice of one event bucket; once the slice leaves the
 * write window its histogram is measured and shown in ListTimeSlices, the recommendation asks for
 * more event buckets, a namespace with {@code timePartition.auto} takes it for its future slices
 * while one without keeps its settings, and a read across the old slice and a new one (different
 * settings) returns exactly the events written.
 */
class PartitionHistogramIT {

  static final String AUTO = "histogram_auto_it";
  static final String MANUAL = "histogram_manual_it";
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
          compaction:
            switchInterval: 1h
          histogram:
            interval: 1s
            targetPartitionRows: 200
        """);
    server = new TestServer(ServerSettings.load(config), clock, "varve_histogram_it", AUTO, MANUAL);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static void create(String ns, boolean auto) {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
            {"namespace": "%s", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
              "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 3600,
                "eventBuckets": 1%s}, "acceptLimit": "2h"}}]}"""
                .formatted(ns, auto ? ", \"auto\": true" : ""));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  static JsonNode listed(String ns) {
    TestServer.Reply reply = server.post("ListTimeSlices", "{\"namespace\": \"" + ns + "\"}");
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    return reply.body();
  }

  static JsonNode sliceHolding(String ns, Instant t) {
    for (JsonNode s : listed(ns).path("timeSlices")) {
      if (!Instant.parse(s.path("startTime").asText()).isAfter(t)
          && Instant.parse(s.path("endTime").asText()).isAfter(t)) {
        return s;
      }
    }
    throw new AssertionError("no slice of " + ns + " holds " + t);
  }

  /** 600 events of the dense series and 2 of each of 40 sparse ones, at {@code t} and after. */
  static List<String> writeSkewed(String ns, Instant t, String prefix) {
    List<ObjectNode> events = new ArrayList<>();
    List<String> hot = new ArrayList<>();
    for (int i = 0; i < 600; i++) {
      String id = prefix + "-" + i;
      events.add(event("hot", t.plusMillis(i), id, "k", "v" + i));
      hot.add(id);
    }
    for (int s = 0; s < 40; s++) {
      for (int i = 0; i < 2; i++) {
        events.add(event("sparse-" + s, t.plusMillis(i), prefix + "-" + i, "k", "v"));
      }
    }
    for (int from = 0; from < events.size(); from += 250) {
      TestServer.Reply reply =
          server.post(
              "WriteEventRecordsSync",
              write(ns, events.subList(from, Math.min(events.size(), from + 250))));
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
    }
    return hot;
  }

  @Test
  void a_dense_series_gets_more_event_buckets_for_future_slices_and_reads_stay_exact()
      throws Exception {
    create(AUTO, true);
    create(MANUAL, false);
    Instant t = clock.instant().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.SECONDS);
    List<String> hot = writeSkewed(AUTO, t, "a");
    writeSkewed(MANUAL, t, "a");
    String table = sliceHolding(AUTO, t).path("table").asText();

    // the events' slice leaves the write window of 2 h
    clock.advance(Duration.ofHours(3).plusMinutes(30));
    TestServer.await(
        "the events' slice of both namespaces measured",
        () -> sliceHolding(AUTO, t).has("histogram") && sliceHolding(MANUAL, t).has("histogram"));
    JsonNode h = sliceHolding(AUTO, t).path("histogram");
    assertThat(sliceHolding(AUTO, t).path("table").asText()).isEqualTo(table);
    assertThat(h.path("sampledFraction").asDouble()).isEqualTo(1.0);
    assertThat(h.path("partitions").asLong()).as(h.toString()).isEqualTo(41);
    assertThat(h.path("rows").asLong()).isEqualTo(600 + 80);
    assertThat(h.path("maxRows").asLong()).isEqualTo(600);
    assertThat(h.path("p50Rows").asLong()).isEqualTo(2);
    assertThat(h.path("densestTimeSeriesId").asText()).isEqualTo("hot");
    assertThat(h.path("meanRowBytes").asLong())
        .as("event id, item key and value, time")
        .isPositive();
    // 40 partitions of 2 rows in [2, 4), one of 600 in [512, 1024)
    assertThat(h.path("rowsLog2").get(1).asLong()).isEqualTo(40);
    assertThat(h.path("rowsLog2").get(9).asLong()).isEqualTo(1);

    // p99 of 41 partitions is the dense one: 600 rows, 3 times the target of 200: aiming at half
    // of it, 6 event buckets
    JsonNode manual = listed(MANUAL).path("recommendation");
    assertThat(manual.path("eventBuckets").asInt()).as(manual.toString()).isEqualTo(6);
    assertThat(manual.path("secondsPerTimeBucket").asLong()).isEqualTo(3600);
    assertThat(manual.path("load").asDouble()).isEqualTo(3.0);
    assertThat(manual.path("current").asBoolean()).isFalse();
    assertThat(manual.path("reason").asText()).contains("600 rows");

    // AUTO takes it; MANUAL keeps its settings
    TestServer.await(
        "timePartition.auto applied",
        () -> listed(AUTO).path("recommendation").path("current").asBoolean());
    JsonNode partition =
        server
            .post("GetNamespace", "{\"namespace\": \"" + AUTO + "\"}")
            .body()
            .path("persistenceConfiguration")
            .get(0)
            .path("config")
            .path("timePartition");
    assertThat(partition.path("eventBuckets").asInt()).isEqualTo(6);
    assertThat(partition.path("auto").asBoolean()).isTrue();
    assertThat(
            server
                .post("GetNamespace", "{\"namespace\": \"" + MANUAL + "\"}")
                .body()
                .path("persistenceConfiguration")
                .get(0)
                .path("config")
                .path("timePartition")
                .path("eventBuckets")
                .asInt())
        .isEqualTo(1);
    assertThat(server.metricsText()).contains("varve_partition_settings_applied_total 1.0");
    assertThat(sliceHolding(AUTO, t).path("eventBuckets").asInt())
        .as("a slice keeps the settings it was created with")
        .isEqualTo(1);

    // slices created from now on have 6 event buckets: write the dense series there too. Four
    // hours on, so that t2's slice lies past every slice the maintainer created ahead before the
    // new settings (with three, a run started between :30 and :35 found t2's slice made earlier)
    clock.advance(Duration.ofHours(4));
    Instant t2 = clock.instant().minus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.SECONDS);
    TestServer.await(
        "a slice with the new settings",
        () -> {
          try {
            return sliceHolding(AUTO, t2).path("eventBuckets").asInt() == 6;
          } catch (AssertionError notYet) {
            return false; // created by the next maintenance cycle
          }
        });
    hot.addAll(writeSkewed(AUTO, t2, "b"));
    List<String> read = BufferedWriteIT.read(server, AUTO, "hot", t, t2.plus(Duration.ofHours(1)));
    assertThat(read).hasSize(1200);
    assertThat(new TreeSet<>(read)).isEqualTo(new TreeSet<>(hot));
  }
}
