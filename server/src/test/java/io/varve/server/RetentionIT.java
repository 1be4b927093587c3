package io.varve.server;

import static io.varve.server.Events.event;
import static io.varve.server.Events.ids;
import static io.varve.server.Events.read;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.varve.server.config.ServerSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Retention and the slice maintainer, with the server's clock moved forward: slices close after
 * close_after, are dropped after delete_after, and new slices keep covering the write window.
 */
class RetentionIT {

  static final String NS = "retention_it";
  static final MovableClock clock = new MovableClock();
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(config, "timeseries:\n  sliceMaintenanceInterval: 1s\n");
    server =
        new TestServer(
            ServerSettings.load(config), clock, "varve_retention_it", NS, "retention_extend_it");
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static JsonNode slice(JsonNode namespace, String table) {
    for (JsonNode s : namespace.path("timeSlices")) {
      if (s.path("table").asText().equals(table)) {
        return s;
      }
    }
    return null;
  }

  static JsonNode awaitStatus(String table, String status) throws InterruptedException {
    return awaitStatus(NS, table, status);
  }

  static JsonNode awaitStatus(String ns, String table, String status) throws InterruptedException {
    long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
    JsonNode s = null;
    while (System.nanoTime() < deadline) {
      s = slice(server.post("GetNamespace", "{\"namespace\": \"" + ns + "\"}").body(), table);
      if (s != null && s.path("status").asText().equals(status)) {
        return s;
      }
      Thread.sleep(500);
    }
    throw new AssertionError("slice " + table + " did not become " + status + ": " + s);
  }

  static Set<String> tables() {
    return tables(NS);
  }

  static Set<String> tables(String keyspace) {
    Set<String> tables = new HashSet<>();
    server
        .cql
        .execute(
            "SELECT table_name FROM system_schema.tables WHERE keyspace_name = '" + keyspace + "'")
        .forEach(r -> tables.add(r.getString(0)));
    return tables;
  }

  @Test
  void slices_close_then_drop_and_new_slices_follow_the_clock() throws Exception {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "retention_it", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 3600, "eventBuckets": 1},
                     "acceptLimit": "2h"},
          "lifecycleConfigs": {"lifecycleConfig": [{"type": "retention",
                                "config": {"close_after": "3h", "delete_after": "5h"}}]}}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    Instant t = clock.instant().minus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.MILLIS);
    assertThat(
            server
                .post("WriteEventRecordsSync", write(NS, List.of(event("r", t, "kept", "k", "v"))))
                .body()
                .path("writtenCount")
                .asInt())
        .isEqualTo(1);
    String table = null;
    for (JsonNode s :
        server.post("GetNamespace", "{\"namespace\": \"" + NS + "\"}").body().path("timeSlices")) {
      if (!Instant.parse(s.path("startTime").asText()).isAfter(t)
          && Instant.parse(s.path("endTime").asText()).isAfter(t)) {
        table = s.path("table").asText();
      }
    }
    assertThat(table).isNotNull();
    assertThat(tables()).contains(table);

    clock.advance(Duration.ofHours(4));
    awaitStatus(table, "CLOSED");
    assertThat(tables()).as("a closed slice keeps its table").contains(table);
    JsonNode closedRead =
        server.post("ReadEventRecords", read(NS, "r", t.minusSeconds(1), t.plusSeconds(1))).body();
    assertThat(ids(closedRead)).as("closed slices are not read").isEmpty();

    clock.advance(Duration.ofHours(2));
    awaitStatus(table, "DELETED");
    assertThat(tables()).as("a deleted slice's table is dropped").doesNotContain(table);

    Instant now = clock.instant();
    JsonNode ns = server.post("GetNamespace", "{\"namespace\": \"" + NS + "\"}").body();
    boolean covered = false;
    for (JsonNode s : ns.path("timeSlices")) {
      if (s.path("status").asText().equals("ACTIVE")
          && !Instant.parse(s.path("startTime").asText()).isAfter(now)
          && Instant.parse(s.path("endTime").asText()).isAfter(now)) {
        covered = true;
      }
    }
    assertThat(covered).as("a slice covers the moved clock's now").isTrue();
    Instant later = now.minusSeconds(5).truncatedTo(ChronoUnit.MILLIS);
    assertThat(
            server
                .post(
                    "WriteEventRecordsSync", write(NS, List.of(event("r", later, "new", "k", "v"))))
                .body()
                .path("writtenCount")
                .asInt())
        .isEqualTo(1);
  }

  @Test
  void raising_close_after_reopens_a_closed_slice_in_the_update_and_lowering_it_closes_it_again()
      throws Exception {
    String ns = "retention_extend_it";
    String config =
        """
        {"namespace": "%s", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 3600, "eventBuckets": 1},
                     "acceptLimit": "2h"},
          "lifecycleConfigs": {"lifecycleConfig": [{"type": "retention",
                                "config": {"close_after": "%s", "delete_after": "30h"}}]}}]}""";
    TimeSeriesReply created = post("CreateNamespace", config.formatted(ns, "3h"));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    Instant t = clock.instant().minus(Duration.ofMinutes(30)).truncatedTo(ChronoUnit.MILLIS);
    assertThat(
            server
                .post("WriteEventRecordsSync", write(ns, List.of(event("r", t, "kept", "k", "v"))))
                .body()
                .path("writtenCount")
                .asInt())
        .isEqualTo(1);
    String table = tableHolding(ns, t);

    clock.advance(Duration.ofHours(4));
    awaitStatus(ns, table, "CLOSED");
    assertThat(
            ids(
                server
                    .post("ReadEventRecords", read(ns, "r", t.minusSeconds(1), t.plusSeconds(1)))
                    .body()))
        .isEmpty();

    // retention extended: the answer of the update itself shows the slice open again
    TimeSeriesReply extended = post("UpdateNamespace", config.formatted(ns, "10h"));
    assertThat(extended.status()).as(extended.body().toString()).isEqualTo(200);
    JsonNode reopened = slice(extended.body(), table);
    assertThat(reopened.path("status").asText()).isEqualTo("ACTIVE");
    assertThat(tables(ns)).contains(table);
    assertThat(
            ids(
                server
                    .post("ReadEventRecords", read(ns, "r", t.minusSeconds(1), t.plusSeconds(1)))
                    .body()))
        .as("the reopened slice's events are read again")
        .containsExactly("kept");

    // lowered again: the next maintenance pass closes it
    assertThat(post("UpdateNamespace", config.formatted(ns, "3h")).status()).isEqualTo(200);
    awaitStatus(ns, table, "CLOSED");
    assertThat(tables(ns)).as("closing never drops").contains(table);
  }

  record TimeSeriesReply(int status, JsonNode body) {}

  static TimeSeriesReply post(String rpc, String body) throws Exception {
    TestServer.Reply r = server.post(rpc, body);
    return new TimeSeriesReply(r.status(), r.body());
  }

  static String tableHolding(String ns, Instant t) throws Exception {
    for (JsonNode s :
        server.post("GetNamespace", "{\"namespace\": \"" + ns + "\"}").body().path("timeSlices")) {
      if (!Instant.parse(s.path("startTime").asText()).isAfter(t)
          && Instant.parse(s.path("endTime").asText()).isAfter(t)) {
        return s.path("table").asText();
      }
    }
    throw new AssertionError("no slice of " + ns + " holds " + t);
  }
}
