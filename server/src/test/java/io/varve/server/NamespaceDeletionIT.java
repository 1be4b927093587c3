package io.varve.server;

import static io.varve.server.Events.b64;
import static io.varve.server.Events.event;
import static io.varve.server.Events.ids;
import static io.varve.server.Events.read;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.varve.local.testing.TestOpenSearch;
import io.varve.server.config.ServerSettings;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DeleteNamespace and ListTimeSlices on the real test Cassandra and OpenSearch: a deletion needs
 * its confirmation, drops every table and index slice of the namespace while writers run (none of
 * whom sees a 5xx), leaves the name free for a new namespace with none of the old data, answers
 * NOT_FOUND the second time, and a deletion interrupted after its mark is finished by the control
 * plane.
 */
class NamespaceDeletionIT {

  static final String TS = "deletion_ts_it";
  static final String KV = "deletion_kv_it";
  static final String RESUMED = "deletion_resumed_it";
  static final String SLICES = "deletion_slices_it";
  static final String CONFIRM = "deletion_confirm_it";
  static final String SHARED_A = "deletion_shared_a_it";
  static final String SHARED_B = "deletion_shared_b_it";
  static final String DATASET = "deletion-it-" + ProcessHandle.current().pid();
  static final HttpClient http = TestHttp.client();
  static TestServer server;

  @BeforeAll
  static void start() throws Exception {
    Path config = Files.createTempFile("varve", ".yaml");
    Files.writeString(config, "timeseries:\n  sliceMaintenanceInterval: 1s\n");
    ServerSettings settings =
        ServerSettings.load(config).toBuilder()
            .openSearchUrls(List.of(URI.create(TestOpenSearch.endpoint())))
            .build();
    server = new TestServer(settings, "varve_deletion_it", TS, KV, RESUMED, SLICES, CONFIRM);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static void createTimeSeries(String ns, boolean indexed) {
    String index =
        indexed
            ? """
            , {"id": "INDEX_STORAGE", "physicalStorage": {"type": "OPENSEARCH", "dataset": "%s"},
               "config": {"timePartition": {"secondsPerSlice": "3600"},
                 "indexConfig": {"fieldMapping": {"kind": "KEYWORD"}, "refreshInterval": "1s"}}}"""
                .formatted(DATASET)
            : "";
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
            {"namespace": "%s", "persistence_configuration": [
              {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "%s"},
               "config": {"timePartition": {"secondsPerTimeSlice": "3600", "secondsPerTimeBucket": "600"},
                 "acceptLimit": "7200s"}}%s]}"""
                .formatted(ns, ns, index));
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  static TestServer.Reply delete(String ns, String confirm) {
    return server.post(
        "DeleteNamespace",
        "{\"namespace\": \"" + ns + "\", \"confirm_namespace\": \"" + confirm + "\"}");
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

  static List<String> indices(String ns) throws Exception {
    HttpResponse<String> reply =
        http.send(
            HttpRequest.newBuilder(
                    URI.create(
                        TestOpenSearch.endpoint()
                            + "/_cat/indices/"
                            + DATASET
                            + "."
                            + ns
                            + ".*?format=json&h=index"))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    List<String> names = new ArrayList<>();
    TestServer.JSON.readTree(reply.body()).forEach(i -> names.add(i.path("index").asText()));
    return names;
  }

  @Test
  void a_deletion_must_be_confirmed_and_an_unknown_namespace_is_not_found() {
    createTimeSeries(CONFIRM, false);
    TestServer.Reply unconfirmed = delete(CONFIRM, "");
    assertThat(unconfirmed.status()).isEqualTo(400);
    assertThat(unconfirmed.body().toString()).contains("confirm_namespace");
    TestServer.Reply mistyped = delete(CONFIRM, "deletion_confirm_t");
    assertThat(mistyped.status()).isEqualTo(400);
    assertThat(mistyped.body().toString()).contains("deletion_confirm_t").contains(CONFIRM);
    assertThat(server.post("GetNamespace", "{\"namespace\": \"" + CONFIRM + "\"}").status())
        .as("a refused deletion changes nothing")
        .isEqualTo(200);

    TestServer.Reply unknown = delete("no_such_namespace", "no_such_namespace");
    assertThat(unknown.status()).isEqualTo(404);
  }

  @Test
  void list_time_slices_shows_each_slice_with_its_settings_and_status_time() {
    createTimeSeries(SLICES, false);
    TestServer.Reply listed = server.post("ListTimeSlices", "{\"namespace\": \"" + SLICES + "\"}");
    assertThat(listed.status()).as(listed.body().toString()).isEqualTo(200);
    JsonNode slices = listed.body().path("timeSlices");
    assertThat(slices.size()).isGreaterThanOrEqualTo(3); // the write window of 2 h, now, ahead
    Instant previousStart = Instant.MAX;
    for (JsonNode s : slices) {
      Instant start = Instant.parse(s.path("startTime").asText());
      assertThat(start).as("newest first").isBefore(previousStart);
      previousStart = start;
      assertThat(Duration.between(start, Instant.parse(s.path("endTime").asText())))
          .isEqualTo(Duration.ofHours(1));
      assertThat(s.path("secondsPerTimeBucket").asLong()).isEqualTo(600);
      assertThat(s.path("status").asText()).isEqualTo("ACTIVE");
      assertThat(s.path("statusTime").asText()).isNotEmpty();
      assertThat(tables(SLICES)).contains(s.path("table").asText());
    }

    assertThat(server.post("ListTimeSlices", "{\"namespace\": \"no_such_ns\"}").status())
        .isEqualTo(404);
    assertThat(server.post("ListTimeSlices", "{\"namespace\": \"Bad-Name\"}").status())
        .isEqualTo(400);
  }

  @Test
  void deleting_a_time_series_namespace_while_writers_run_drops_its_tables_and_index_slices()
      throws Exception {
    createTimeSeries(TS, true);
    Instant t = Instant.now().minus(Duration.ofMinutes(5)).truncatedTo(ChronoUnit.MILLIS);
    TestServer.Reply written =
        server.post(
            "WriteEventRecordsSync", write(TS, List.of(event("s", t, "before", "kind", "x"))));
    assertThat(written.body().path("writtenCount").asInt()).isEqualTo(1);
    TestServer.await("the event's index slice exists", () -> !indices(TS).isEmpty());
    assertThat(tables(TS)).isNotEmpty();

    // writers and readers keep calling while the namespace goes away
    Map<Integer, AtomicInteger> statuses = new ConcurrentHashMap<>();
    AtomicBoolean running = new AtomicBoolean(true);
    ExecutorService pool = Executors.newFixedThreadPool(3);
    List<Future<?>> callers = new ArrayList<>();
    for (int w = 0; w < 3; w++) {
      int writer = w;
      callers.add(
          pool.submit(
              () -> {
                for (int i = 0; running.get(); i++) {
                  TestServer.Reply r =
                      writer == 2
                          ? server.post(
                              "ReadEventRecords",
                              read(TS, "s", t.minusSeconds(60), t.plusSeconds(60)))
                          : server.post(
                              writer == 0 ? "WriteEventRecordsSync" : "WriteEventRecords",
                              write(
                                  TS,
                                  List.of(
                                      event(
                                          "s",
                                          t.plusMillis(i),
                                          "w" + writer + "_" + i,
                                          "kind",
                                          "y"))));
                  statuses.computeIfAbsent(r.status(), k -> new AtomicInteger()).incrementAndGet();
                }
                return null;
              }));
    }
    Thread.sleep(300); // let the callers get going before the deletion
    TestServer.Reply deleted = delete(TS, TS);
    Thread.sleep(300); // and keep calling after it
    running.set(false);
    for (Future<?> caller : callers) {
      caller.get();
    }
    pool.shutdown();

    assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
    assertThat(deleted.body().path("done").asBoolean()).isTrue();
    assertThat(deleted.body().path("tablesDropped").asInt()).isGreaterThanOrEqualTo(3);
    assertThat(deleted.body().path("indexSlicesDeleted").asInt()).isGreaterThanOrEqualTo(1);
    assertThat(statuses.keySet())
        .as(
            "callers during and after the deletion see success or a refusal, never a 5xx: %s",
            statuses)
        .allMatch(status -> status < 500);
    assertThat(statuses).as("served before the deletion").containsKey(200);
    assertThat(statuses).as("refused after it").containsKey(404);
    assertThat(tables(TS)).as("every slice table is dropped").isEmpty();
    assertThat(indices(TS)).as("every index slice is deleted").isEmpty();
    assertThat(server.post("GetNamespace", "{\"namespace\": \"" + TS + "\"}").status())
        .isEqualTo(404);
    assertThat(server.post("ListNamespaces", "{}").body().toString()).doesNotContain(TS);
    assertThat(delete(TS, TS).status()).as("a second deletion").isEqualTo(404);
    assertThat(
            server
                .post(
                    "WriteEventRecordsSync",
                    write(TS, List.of(event("s", t, "after", "kind", "x"))))
                .status())
        .isEqualTo(404);

    // the name is free again, and the new namespace holds none of the old events
    createTimeSeries(TS, false);
    JsonNode again =
        server
            .post("ReadEventRecords", read(TS, "s", t.minusSeconds(60), t.plusSeconds(60)))
            .body();
    assertThat(ids(again)).isEmpty();
  }

  @Test
  void deleting_a_key_value_namespace_drops_its_item_and_chunk_tables() {
    String kvNamespace =
        """
        {"namespace": "%s", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "%s", "table": "records"}}]}"""
            .formatted(KV, KV);
    TestServer.Reply created = server.post("CreateNamespace", kvNamespace);
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    String put =
        """
        {"namespace": "%s", "id": "r1", "idempotency_token": {"generation_time": "%s", "token": "t1"},
         "items": [{"key": "%s", "value": "%s"}]}"""
            .formatted(KV, Instant.now(), b64("k"), b64("v"));
    assertThat(server.post("PutItems", put).status()).isEqualTo(200);
    assertThat(tables(KV)).contains("records", "records_chunks");
    assertThat(server.post("ListTimeSlices", "{\"namespace\": \"" + KV + "\"}").body().toString())
        .as("a KeyValue namespace has no slices")
        .contains("TIME_SERIES");

    TestServer.Reply deleted = delete(KV, KV);
    assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
    assertThat(deleted.body().path("tablesDropped").asInt()).isEqualTo(2);
    assertThat(tables(KV)).isEmpty();
    TestServer.Reply get =
        server.post(
            "GetItems", "{\"namespace\": \"" + KV + "\", \"id\": \"r1\", \"predicate\": {}}");
    assertThat(get.status()).isEqualTo(404);
    assertThat(server.post("PutItems", put).status()).isEqualTo(404);

    assertThat(server.post("CreateNamespace", kvNamespace).status()).isEqualTo(200);
    TestServer.Reply fresh =
        server.post(
            "GetItems", "{\"namespace\": \"" + KV + "\", \"id\": \"r1\", \"predicate\": {}}");
    assertThat(fresh.status()).isEqualTo(200);
    assertThat(fresh.body().path("items").size())
        .as("neither the cache nor the table keeps the deleted namespace's items")
        .isZero();
  }

  @Test
  void deleting_a_key_value_namespace_keeps_a_table_another_namespace_names_too() {
    String shared =
        """
        {"namespace": "%s", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "%s", "table": "shared"}}]}""";
    assertThat(server.post("CreateNamespace", shared.formatted(SHARED_A, KV)).status())
        .isEqualTo(200);
    assertThat(server.post("CreateNamespace", shared.formatted(SHARED_B, KV)).status())
        .isEqualTo(200);
    String put =
        """
        {"namespace": "%s", "id": "r1", "idempotency_token": {"generation_time": "%s", "token": "t1"},
         "items": [{"key": "%s", "value": "%s"}]}"""
            .formatted(SHARED_B, Instant.now(), b64("k"), b64("v"));
    assertThat(server.post("PutItems", put).status()).isEqualTo(200);

    TestServer.Reply deleted = delete(SHARED_A, SHARED_A);

    assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);
    assertThat(deleted.body().path("tablesDropped").asInt()).isZero();
    assertThat(tables(KV)).contains("shared", "shared_chunks");
    TestServer.Reply kept =
        server.post(
            "GetItems", "{\"namespace\": \"" + SHARED_B + "\", \"id\": \"r1\", \"predicate\": {}}");
    assertThat(kept.body().path("items").size()).as("the other namespace's items").isEqualTo(1);
    assertThat(delete(SHARED_B, SHARED_B).body().path("tablesDropped").asInt())
        .as("the last namespace naming it drops it")
        .isEqualTo(2);
    assertThat(tables(KV)).doesNotContain("shared", "shared_chunks");
  }

  @Test
  void a_deletion_interrupted_after_its_mark_is_finished_by_the_control_plane() throws Exception {
    createTimeSeries(RESUMED, false);
    assertThat(tables(RESUMED)).isNotEmpty();
    // what a server killed just after marking leaves behind: the mark, every table still there
    server.cql.execute(
        "UPDATE varve_deletion_it.namespaces SET deleting_since = '"
            + Instant.now().minus(Duration.ofMinutes(5))
            + "' WHERE namespace = '"
            + RESUMED
            + "'");

    TestServer.await(
        "the maintenance cycle finishes the deletion",
        () -> server.post("GetNamespace", "{\"namespace\": \"" + RESUMED + "\"}").status() == 404);
    assertThat(tables(RESUMED)).isEmpty();
    assertThat(
            server
                .cql
                .execute(
                    "SELECT start_time FROM varve_deletion_it.time_slices WHERE namespace = '"
                        + RESUMED
                        + "'")
                .all())
        .as("its slices are forgotten")
        .isEmpty();
  }
}
