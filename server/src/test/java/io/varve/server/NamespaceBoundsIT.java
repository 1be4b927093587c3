package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import io.varve.cassandra.metadata.CqlMetadataStore;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.server.config.ServerSettings;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A namespace configuration that multiplies work beyond the bounds is refused at once, and one
 * already stored (as an older version stored it, bypassing today's validation) is loaded unserved:
 * the server starts, reports it, creates nothing for it and refuses its traffic, serves the other
 * namespaces, and serves it again once UpdateNamespace gives it valid values.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class NamespaceBoundsIT {

  static final String META = "varve_nsbounds_it";
  static final String GOOD = "nsbounds_good";
  static final String HOSTILE = "nsbounds_hostile";
  static final String HOSTILE_CONFIG =
      "{\"namespace\":\""
          + HOSTILE
          + "\",\"persistenceConfiguration\":[{\"id\":"
          + "\"PRIMARY_STORAGE\",\"physicalStorage\":{\"type\":\"CASSANDRA\",\"dataset\":\""
          + HOSTILE
          + "\"},\"config\":"
          + "{\"timePartition\":{\"secondsPerTimeSlice\":\"1\",\"secondsPerTimeBucket\":\"1\",\"eventBuckets\":4},"
          + "\"acceptLimit\":\"8640000000s\"}}]}";
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(config, "timeseries:\n  sliceMaintenanceInterval: 1s\n");
    server =
        new TestServer(
            ServerSettings.load(config),
            Clock.systemUTC(),
            META,
            NamespaceBoundsIT::storeHostile,
            GOOD,
            HOSTILE,
            "x");
  }

  /** Stores the namespace of the out-of-memory report directly, as an older version accepted it. */
  static void storeHostile(CqlSession cql) {
    CqlMetadataStore.open(
        cql,
        META,
        new CqlSliceTables(
            cql,
            Map.of("class", "SimpleStrategy", "replication_factor", "1"),
            Duration.ofSeconds(30)),
        Duration.ofSeconds(30));
    Instant now = Instant.now();
    cql.execute(
        SimpleStatement.newInstance(
            "INSERT INTO "
                + META
                + ".namespaces (namespace, config, version,"
                + " create_time, update_time) VALUES (?, ?, 1, ?, ?)",
            HOSTILE,
            HOSTILE_CONFIG,
            now,
            now));
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static String write(String namespace, String eventId) {
    return "{\"namespace\": \""
        + namespace
        + "\", \"events\": [{\"timeSeriesId\": \"s1\", \"eventTime\": \""
        + Instant.now().minusSeconds(5).truncatedTo(java.time.temporal.ChronoUnit.MILLIS)
        + "\", \"eventId\": \""
        + eventId
        + "\", \"eventItems\": [{\"eventItemKey\": \"aw==\", \"eventItemValue\": \"dg==\"}]}]}";
  }

  static String read(String namespace) {
    return "{\"namespace\": \""
        + namespace
        + "\", \"timeSeriesId\": \"s1\", \"timeInterval\": {\"start\":"
        + " \"2020-01-01T00:00:00Z\", \"end\": \"2100-01-01T00:00:00Z\"}}";
  }

  static HttpResponse<String> get(String path) throws Exception {
    return TestHttp.client()
        .send(
            HttpRequest.newBuilder(URI.create(server.base() + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString());
  }

  /** The cycles the slice maintainer completed (every second here), from {@code /metrics}. */
  static double maintenanceCycles() {
    Matcher m =
        Pattern.compile(
                "(?m)^varve_background_cycles_total\\{worker=\"slice-maintainer\",?\\}"
                    + " ([0-9.eE+-]+)$")
            .matcher(server.metricsText());
    assertThat(m.find()).as("the slice maintainer's cycles in /metrics").isTrue();
    return Double.parseDouble(m.group(1));
  }

  static long rows(String cql, Object... values) {
    return server.cql.execute(SimpleStatement.newInstance(cql, values)).all().size();
  }

  @Test
  @Order(1)
  void refuses_the_configuration_that_exhausted_memory_within_a_second_and_keeps_serving()
      throws Exception {
    String hostile =
        "{\"namespace\":\"x\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\",\"config\":"
            + "{\"timePartition\":{\"secondsPerTimeSlice\":\"1\",\"secondsPerTimeBucket\":\"1\"},\"acceptLimit\":\"100000d\"}}]}";
    // the first requests of a fresh JVM load classes for seconds on a busy machine: warm the path
    // up
    // with another refused configuration, so that the time measured is the refusal's own
    for (int i = 0; i < 3; i++) {
      server.post(
          "CreateNamespace",
          "{\"namespace\":\"x\",\"persistence_configuration\":[{\"id\":\"PRIMARY_STORAGE\","
              + "\"config\":{\"timePartition\":{\"eventBuckets\":0}}}]}");
    }
    long started = System.nanoTime();
    TestServer.Reply reply = server.post("CreateNamespace", hostile);
    Duration took = Duration.ofNanos(System.nanoTime() - started);

    assertThat(reply.status()).isEqualTo(400);
    assertThat(took).isLessThan(Duration.ofSeconds(1));
    assertThat(reply.errorField())
        .isEqualTo("persistence_configuration[0].config.timePartition.secondsPerTimeSlice");
    assertThat(reply.errorMessage())
        .isEqualTo(
            "persistence_configuration[0].config.timePartition.secondsPerTimeSlice: 1 (expected: 3600..316224000 seconds)");
    assertThat(server.post("GetNamespace", "{\"namespace\": \"x\"}").status()).isEqualTo(404);
    assertThat(get("/health").statusCode()).isEqualTo(200);
  }

  @Test
  @Order(2)
  void starts_on_a_stored_namespace_outside_the_bounds_and_reports_it() throws Exception {
    TestServer.Reply got = server.post("GetNamespace", "{\"namespace\": \"" + HOSTILE + "\"}");
    assertThat(got.status()).isEqualTo(200);
    assertThat(got.body().path("invalidConfiguration").asText())
        .contains("timePartition.secondsPerTimeSlice: 1 (expected: 3600..316224000 seconds)");

    JsonNode listed = server.post("ListNamespaces", "{}").body().path("namespaces");
    assertThat(listed.findValuesAsText("invalidConfiguration"))
        .singleElement()
        .asString()
        .contains("secondsPerTimeSlice");

    HttpResponse<String> health = get("/health");
    assertThat(health.statusCode()).isEqualTo(200);
    JsonNode report = TestServer.JSON.readTree(health.body());
    assertThat(report.path("unservedNamespaces").path(HOSTILE).asText())
        .contains("secondsPerTimeSlice");
    assertThat(report.path("workers").path("slice-maintainer").path("healthy").asBoolean())
        .isTrue();
    assertThat(get("/metrics").body())
        .containsPattern("(?m)^varve_namespaces_unserved(\\{[^}]*\\})? 1\\.0$");
  }

  @Test
  @Order(3)
  void refuses_the_traffic_of_the_unserved_namespace_saying_how_to_fix_it() {
    for (TestServer.Reply reply :
        new TestServer.Reply[] {
          server.post("WriteEventRecordsSync", write(HOSTILE, "e1")),
          server.post("ReadEventRecords", read(HOSTILE))
        }) {
      assertThat(reply.status()).isEqualTo(412);
      assertThat(reply.body().path("error").path("code").asText()).isEqualTo("FAILED_PRECONDITION");
      assertThat(reply.errorMessage())
          .contains("namespace '" + HOSTILE + "' is not served")
          .contains("secondsPerTimeSlice: 1")
          .contains("UpdateNamespace with valid values");
    }
  }

  @Test
  @Order(4)
  void creates_nothing_for_it_while_serving_another_namespace() throws Exception {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \""
                + GOOD
                + "\", "
                + "\"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\"}]}");
    assertThat(created.status()).isEqualTo(200);
    assertThat(
            server
                .post("WriteEventRecordsSync", write(GOOD, "g1"))
                .body()
                .path("writtenCount")
                .asInt())
        .isEqualTo(1);
    assertThat(server.post("ReadEventRecords", read(GOOD)).body().path("events")).hasSize(1);
    // a whole maintenance cycle after the other namespace is served: the one in progress ends,
    // the next one runs from its start
    double cycles = maintenanceCycles();
    BufferedWriteRetryIT.await(() -> maintenanceCycles() >= cycles + 2, 60);

    assertThat(rows("SELECT start_time FROM " + META + ".time_slices WHERE namespace = ?", HOSTILE))
        .isZero();
    assertThat(rows("SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", HOSTILE))
        .isZero();
    assertThat(rows("SELECT table_name FROM system_schema.tables WHERE keyspace_name = ?", GOOD))
        .isPositive();
  }

  @Test
  @Order(5)
  void update_with_valid_values_serves_it_again() throws Exception {
    TestServer.Reply updated =
        server.post(
            "UpdateNamespace",
            "{\"namespace\": \""
                + HOSTILE
                + "\", "
                + "\"expected_version\": 1, \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", "
                + "\"physicalStorage\": {\"dataset\": \""
                + HOSTILE
                + "\"}, \"config\": {\"acceptLimit\": \"36h\"}}]}");

    assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
    assertThat(updated.body().get("invalidConfiguration").asText())
        .as("printed, empty: served")
        .isEmpty();
    assertThat(updated.body().path("timeSlices")).isNotEmpty();
    assertThat(
            server
                .post("WriteEventRecordsSync", write(HOSTILE, "h1"))
                .body()
                .path("writtenCount")
                .asInt())
        .isEqualTo(1);
    assertThat(server.post("ReadEventRecords", read(HOSTILE)).body().path("events")).hasSize(1);
    JsonNode report = TestServer.JSON.readTree(get("/health").body());
    assertThat(report.path("unservedNamespaces").size()).isZero();
  }
}
