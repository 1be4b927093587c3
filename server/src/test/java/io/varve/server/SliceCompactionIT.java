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
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Dynamic compaction on the real test Cassandra (5.0), the server's clock moved forward: slice
 * tables are created with time windows, and once a slice's end is older than the accept limit its
 * table is switched to the levelled unified strategy, in {@code system_schema.tables} and in
 * ListTimeSlices, one slice per switch interval, its events still read; a namespace that asks for
 * no switch keeps its tables; a switch whose record was lost (the server stopped after its ALTER)
 * is recorded by a later cycle.
 */
class SliceCompactionIT {

  static final String NS = "slice_compaction_it";
  static final String KEPT = "slice_compaction_kept_it";
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
        """);
    server = new TestServer(ServerSettings.load(config), clock, "varve_compaction_it", NS, KEPT);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static void create(String ns, String closed) {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
            {"namespace": "%s", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
              "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 3600,
                "eventBuckets": 1}, "acceptLimit": "2h", "compaction": {"closed": "%s"}}}]}"""
                .formatted(ns, closed));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  static List<JsonNode> slices(String ns) {
    List<JsonNode> slices = new ArrayList<>();
    server
        .post("ListTimeSlices", "{\"namespace\": \"" + ns + "\"}")
        .body()
        .path("timeSlices")
        .forEach(slices::add);
    return slices;
  }

  static JsonNode slice(String ns, String table) {
    return slices(ns).stream()
        .filter(s -> s.path("table").asText().equals(table))
        .findFirst()
        .orElseThrow();
  }

  /** The compaction class of a table, by the cluster's schema. */
  static String schemaCompaction(String keyspace, String table) {
    Map<String, String> compaction =
        server
            .cql
            .execute(
                "SELECT compaction FROM system_schema.tables WHERE keyspace_name = ? AND"
                    + " table_name = ?",
                keyspace,
                table)
            .one()
            .getMap(0, String.class, String.class);
    return compaction.get("class");
  }

  static String tableHolding(String ns, Instant t) {
    return slices(ns).stream()
        .filter(
            s ->
                !Instant.parse(s.path("startTime").asText()).isAfter(t)
                    && Instant.parse(s.path("endTime").asText()).isAfter(t))
        .findFirst()
        .orElseThrow()
        .path("table")
        .asText();
  }

  static long switched(String ns) {
    return slices(ns).stream()
        .filter(s -> s.path("compaction").asText().equals("UnifiedCompactionStrategy"))
        .count();
  }

  /** Moves the clock an hour at a time, each step allowing one switch, until {@code done}. */
  static void stepUntil(String what, Callable<Boolean> done) throws Exception {
    for (int step = 0; step < 12 && !done.call(); step++) {
      long before = switched(NS) + switched(KEPT);
      clock.advance(Duration.ofHours(1));
      long deadline = System.nanoTime() + Duration.ofSeconds(15).toNanos();
      while (switched(NS) + switched(KEPT) == before && System.nanoTime() < deadline) {
        Thread.sleep(200); // between polls of the server
      }
    }
    assertThat(done.call()).as(what).isTrue();
  }

  @Test
  void slices_past_the_accept_limit_switch_to_levelled_compaction_one_per_interval()
      throws Exception {
    create(NS, "AUTO");
    create(KEPT, "UNCHANGED");
    Instant t = clock.instant().minus(Duration.ofMinutes(10)).truncatedTo(ChronoUnit.MILLIS);
    assertThat(
            server
                .post("WriteEventRecordsSync", write(NS, List.of(event("s", t, "e1", "k", "v"))))
                .body()
                .path("writtenCount")
                .asInt())
        .isEqualTo(1);
    String table = tableHolding(NS, t);
    for (String ns : List.of(NS, KEPT)) {
      for (JsonNode s : slices(ns)) {
        assertThat(s.path("compaction").asText())
            .as("a new slice table has time windows")
            .isEqualTo("TimeWindowCompactionStrategy");
        assertThat(s.path("compactionTime").asText()).isNotEmpty();
      }
    }
    assertThat(schemaCompaction(NS, table)).endsWith(".TimeWindowCompactionStrategy");
    // what a server stopped between its ALTER and its record leaves: the table switched, the
    // slice still recording time windows (here in a namespace that asks for no switch, for now)
    String kept = tableHolding(KEPT, t);
    server.cql.execute(
        "ALTER TABLE "
            + KEPT
            + "."
            + kept
            + " WITH compaction = {'class': 'UnifiedCompactionStrategy', 'scaling_parameters':"
            + " 'L10'}");

    // the oldest slice, older than the event's (the write window of 2 h reaches before the event's
    // hour), loses its table outside Varve: its switch, the first, fails, and the others go on
    String broken =
        slices(NS).stream()
            .min(java.util.Comparator.comparing(s -> s.path("startTime").asText()))
            .orElseThrow()
            .path("table")
            .asText();
    assertThat(broken).isNotEqualTo(table);
    server.cql.execute("DROP TABLE " + NS + "." + broken);

    // the event's slice and the one before it leave the write window
    clock.advance(Duration.ofHours(3).plusMinutes(30));
    TestServer.await(
        "the first switch, of the oldest slice, fails",
        () ->
            server
                .metricsText()
                .contains("varve_slice_compaction_switches_total{outcome=\"failed\"} 1.0"));
    Thread.sleep(3000); // three more cycles: the interval of 1 h (server clock) holds the next
    assertThat(switched(NS)).as("one switch per interval, a failed one included").isZero();
    assertThat(switched(KEPT)).as("UNCHANGED switches nothing").isZero();
    assertThat(server.metricsText()).containsPattern("(?m)^varve_slice_compaction_pending [1-9]");

    stepUntil(
        "the event's slice switched",
        () -> slice(NS, table).path("compaction").asText().equals("UnifiedCompactionStrategy"));
    assertThat(schemaCompaction(NS, table)).endsWith(".UnifiedCompactionStrategy");
    // the metric counts every switch the slices record (older slices than the event's go first)
    assertThat(server.metricsText())
        .contains(
            "varve_slice_compaction_switches_total{outcome=\"switched\"} "
                + (double) (switched(NS) + switched(KEPT)));
    Map<String, String> options =
        server
            .cql
            .execute(
                "SELECT compaction FROM system_schema.tables WHERE keyspace_name = ? AND"
                    + " table_name = ?",
                NS,
                table)
            .one()
            .getMap(0, String.class, String.class);
    assertThat(options).containsEntry("scaling_parameters", "L10");
    assertThat(
            ids(
                server
                    .post("ReadEventRecords", read(NS, "s", t.minusSeconds(1), t.plusSeconds(1)))
                    .body()))
        .as("the switched slice is read as before")
        .containsExactly("e1");

    // the namespace now asks for the switch: its table is switched already, the record follows
    TestServer.Reply updated =
        server.post(
            "UpdateNamespace",
            """
            {"namespace": "%s", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
              "config": {"timePartition": {"secondsPerTimeSlice": 3600, "secondsPerTimeBucket": 3600,
                "eventBuckets": 1}, "acceptLimit": "2h", "compaction": {"closed": "UNIFIED"}}}]}"""
                .formatted(KEPT));
    assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
    stepUntil(
        "the slice altered by hand recorded as switched",
        () -> slice(KEPT, kept).path("compaction").asText().equals("UnifiedCompactionStrategy"));
    assertThat(schemaCompaction(KEPT, kept)).endsWith(".UnifiedCompactionStrategy");
    assertThat(slice(NS, broken).path("compaction").asText())
        .as("the slice whose table is gone stays as it was")
        .isEqualTo("TimeWindowCompactionStrategy");
  }
}
