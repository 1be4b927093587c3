package io.varve.server;

import static io.varve.server.Events.event;
import static io.varve.server.Events.read;
import static io.varve.server.Events.write;
import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Failures of the store as the API reports them, on the real local Cassandra: a slice table dropped
 * behind the server's back is not a failure to retry, neither for one event of a write nor for a
 * whole read.
 */
class StorageFailuresIT {

  static final String NS = "storage_failures_it";
  static final String KV = "storage_failures_kv";
  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_storage_failures_it", NS, KV);
    server.createKeyValueNamespace(KV, KV, "items", "ASC");
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "storage_failures_it", "persistence_configuration": [{
          "id": "PRIMARY_STORAGE",
          "physical_storage": {"type": "CASSANDRA", "cluster": "local", "dataset": "storage_failures_it"},
          "config": {"acceptLimit": "14400s",
            "timePartition": {"secondsPerTimeSlice": "3600", "secondPerTimeBucket": "600", "eventBuckets": 2}}}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void a_slice_table_dropped_behind_the_servers_back_fails_its_events_and_reads_as_not_retryable() {
    Instant time = Instant.now().minus(Duration.ofHours(2)).truncatedTo(ChronoUnit.MILLIS);
    TestServer.Reply before =
        server.post("WriteEventRecordsSync", write(NS, List.of(event("s", time, "e1", "k", "v"))));
    assertThat(before.body().path("writtenCount").asInt())
        .as(before.body().toString())
        .isEqualTo(1);
    String table = sliceTable(time);
    server.cql.execute(
        SimpleStatement.newInstance("DROP TABLE " + NS + "." + table)
            .setTimeout(Duration.ofSeconds(30)));

    TestServer.Reply written =
        server.post(
            "WriteEventRecordsSync",
            write(
                NS,
                List.of(
                    event("s", time, "e2", "k", "v"),
                    event("s", time.plusMillis(1), "e3", "k", "v"))));

    assertThat(written.status()).isEqualTo(200);
    assertThat(written.body().path("writtenCount").asInt()).isZero();
    JsonNode errors = written.body().path("errors");
    assertThat(errors).hasSize(2);
    for (JsonNode error : errors) {
      assertThat(error.path("code").asText()).as(error.toString()).isEqualTo("FAILED_PRECONDITION");
      assertThat(error.path("message").asText())
          .as(error.toString())
          .contains("was not written: storage refused the request")
          .contains(table)
          .contains("until an operator repairs the store")
          .doesNotContain("retrying is safe");
    }

    TestServer.Reply readBack =
        server.post("ReadEventRecords", read(NS, "s", time.minusSeconds(1), time.plusSeconds(1)));
    assertThat(readBack.status()).as(readBack.body().toString()).isEqualTo(412);
    assertThat(readBack.body().path("error").path("code").asText())
        .isEqualTo("FAILED_PRECONDITION");
    assertThat(readBack.errorMessage()).contains(table).doesNotContain("retrying is safe");
  }

  @Test
  void a_keyvalue_table_dropped_behind_the_servers_back_refuses_every_rpc_as_not_retryable() {
    String token = "{\"generation_time\": \"%s\", \"token\": \"%s\"}";
    String put =
        "{\"namespace\": \""
            + KV
            + "\", \"id\": \"r\", \"idempotency_token\": "
            + token
            + ", \"items\": [{\"key\": \"aw==\", \"value\": \"dg==\"}]}";
    TestServer.Reply before =
        server.post("PutItems", put.formatted(Instant.now(), java.util.UUID.randomUUID()));
    assertThat(before.status()).as(before.body().toString()).isEqualTo(200);
    server.cql.execute(
        SimpleStatement.newInstance("DROP TABLE " + KV + ".items")
            .setTimeout(Duration.ofSeconds(30)));

    java.util.Map<String, String> calls = new java.util.LinkedHashMap<>();
    calls.put("PutItems", put.formatted(Instant.now(), java.util.UUID.randomUUID()));
    calls.put("GetItems", "{\"namespace\": \"" + KV + "\", \"id\": \"r\"}");
    calls.put(
        "DeleteItems",
        ("{\"namespace\": \""
                + KV
                + "\", \"id\": \"r\", \"idempotency_token\": "
                + token
                + ", \"predicate\": {\"match_all\": {}}}")
            .formatted(Instant.now(), java.util.UUID.randomUUID()));
    calls.put(
        "MutateItems",
        ("{\"namespace\": \""
                + KV
                + "\", \"idempotency_token\": "
                + token
                + ", \"mutations\": [{\"id\": \"r\", \"put\": {\"items\": [{\"key\": \"aw==\","
                + " \"value\": \"dg==\"}]}}]}")
            .formatted(Instant.now(), java.util.UUID.randomUUID()));
    calls.put(
        "ScanItems", "{\"namespace\": \"" + KV + "\", \"segment\": 0, \"total_segments\": 1}");
    calls.forEach(
        (rpc, body) -> {
          TestServer.Reply reply = server.post(rpc, body);
          assertThat(reply.status()).as(rpc + " " + reply.body()).isEqualTo(412);
          assertThat(reply.body().path("error").path("code").asText())
              .as(rpc)
              .isEqualTo("FAILED_PRECONDITION");
          assertThat(reply.errorMessage())
              .as(rpc)
              .contains("items")
              .contains("until an operator repairs the store")
              .doesNotContain("retrying is safe");
        });
  }

  private static String sliceTable(Instant time) {
    for (JsonNode slice :
        server.post("GetNamespace", "{\"namespace\": \"" + NS + "\"}").body().path("timeSlices")) {
      if (!Instant.parse(slice.path("startTime").asText()).isAfter(time)
          && Instant.parse(slice.path("endTime").asText()).isAfter(time)) {
        return slice.path("table").asText();
      }
    }
    throw new AssertionError("no slice holds " + time);
  }
}
