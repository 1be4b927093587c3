package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.common.v1.HandshakeRequest;
import io.varve.api.common.v1.HandshakeResponse;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.core.kv.KvSlos;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * KeyValue latency objectives: the namespace's {@code slos} round trip and validation, and
 * SLO-bounded GetItems pages on the real local Cassandra.
 *
 * <p>The wide record holds 25,000 items: far more than one page reads within the 50 ms max through
 * the test's proxy (150 to 400 items), so 60 to 170 partial pages are exercised; each takes about
 * the 50 ms, which is why the record is not larger.
 */
class KeyValueSloIT {

  static SloFixture slo;
  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub grpc;

  @BeforeAll
  static void start() throws Exception {
    slo = SloFixture.start("varve_kv_slo_it", "kv_slo_it", "kv_slo_it_ts");
    server = slo.server();
    grpc = server.keyValue();
    create(
        "kv_slo",
        "\"slos\": {\"GetItems\": {\"latency\": {\"target\": \"0.01s\", \"max\": \"0.05s\"}},"
            + " \"write\": {\"latency\": {\"target\": \"0.02s\", \"max\": \"0.5s\"}}}");
  }

  /** Writes {@code count} items of 8-byte values under keys k000000.. into one record. */
  static void load(String namespace, String id, int count) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(4);
    try {
      List<Future<?>> puts = new ArrayList<>();
      for (int from = 0; from < count; from += 1000) {
        int start = from;
        puts.add(
            pool.submit(
                () -> {
                  PutItemsRequest.Builder put =
                      PutItemsRequest.newBuilder()
                          .setNamespace(namespace)
                          .setId(id)
                          .setIdempotencyToken(KeyValueApiIT.token());
                  for (int i = start; i < Math.min(count, start + 1000); i++) {
                    put.addItems(KeyValueApiIT.item(key(i), "v" + (10_000_000 + i)));
                  }
                  grpc.putItems(put.build());
                }));
      }
      for (Future<?> put : puts) {
        put.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  static String key(int i) {
    return String.format("k%06d", i);
  }

  @AfterEach
  void quick() {
    slo.delay(Duration.ZERO);
  }

  @AfterAll
  static void stop() throws Exception {
    slo.close();
  }

  static void create(String namespace, String config) {
    slo.create(namespace(namespace, config));
  }

  /** A KeyValue namespace of table {@code namespace} whose physical_storage.config holds config. */
  static String namespace(String namespace, String config) {
    return "{\"namespace\": \""
        + namespace
        + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\", \"physical_storage\":"
        + " {\"dataset\": \"kv_slo_it\", \"table\": \""
        + namespace
        + "\", \"config\": {"
        + config
        + "}}}]}";
  }

  static JsonNode slos(String namespace) {
    return slo.slos(namespace, "physicalStorage", "config");
  }

  @Test
  void get_namespace_shows_every_endpoint_with_the_given_group_and_default_objectives() {
    JsonNode slos = slos("kv_slo");

    assertThat(slos.path("GetItems").path("latency").path("target").asText()).isEqualTo("0.010s");
    assertThat(slos.path("GetItems").path("latency").path("max").asText()).isEqualTo("0.050s");
    assertThat(slos.path("ScanItems").path("latency").path("max").asText()).isEqualTo("2s");
    for (String write : new String[] {"PutItems", "DeleteItems", "MutateItems"}) {
      assertThat(slos.path(write).path("latency").path("target").asText()).isEqualTo("0.020s");
      assertThat(slos.path(write).path("latency").path("max").asText()).isEqualTo("0.500s");
    }
  }

  @Test
  void update_namespace_changes_the_objectives_and_get_namespace_shows_them_at_once() {
    create("kv_slo_update", "");
    assertThat(slos("kv_slo_update").path("GetItems").path("latency").path("max").asText())
        .isEqualTo("2s");

    TestServer.Reply updated =
        server.post(
            "UpdateNamespace",
            namespace(
                "kv_slo_update",
                "\"slos\": {\"getItems\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"0.3s\"}}}"));

    assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);
    assertThat(slos("kv_slo_update").path("GetItems").path("latency").path("max").asText())
        .isEqualTo("0.300s");
  }

  static Stream<Arguments> malformed() {
    String slos = "persistence_configuration[0].physicalStorage.config.slos.";
    return Stream.of(
        Arguments.of(
            "{\"GetItem\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"1s\"}}}",
            slos + "GetItem"),
        Arguments.of("{\"GetItems\": {}}", slos + "GetItems.latency"),
        Arguments.of(
            "{\"GetItems\": {\"latency\": {\"max\": \"1s\"}}}", slos + "GetItems.latency.target"),
        Arguments.of(
            "{\"GetItems\": {\"latency\": {\"target\": \"1s\"}}}", slos + "GetItems.latency.max"),
        Arguments.of(
            "{\"GetItems\": {\"latency\": {\"target\": \"2s\", \"max\": \"1s\"}}}",
            slos + "GetItems.latency.target"),
        Arguments.of(
            "{\"PutItems\": {\"latency\": {\"target\": \"0s\", \"max\": \"1s\"}}}",
            slos + "PutItems.latency.target"),
        Arguments.of(
            "{\"read\": {\"latency\": {\"target\": \"1s\", \"max\": \"61s\"}}}",
            slos + "read.latency.max"),
        Arguments.of(
            "{\"DeleteItems\": {\"latency\": {\"target\": \"0.0001s\", \"max\": \"0.0005s\"}}}",
            slos + "DeleteItems.latency.max"),
        Arguments.of(
            "{\"GetItems\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"1s\"}},"
                + " \"getitems\": {\"latency\": {\"target\": \"0.1s\", \"max\": \"1s\"}}}",
            slos + "getitems"));
  }

  @ParameterizedTest(name = "{1}")
  @MethodSource("malformed")
  void malformed_objectives_are_refused_naming_the_field_and_nothing_is_created(
      String slos, String field) {
    slo.assertRefused("kv_slo_bad", namespace("kv_slo_bad", "\"slos\": " + slos), field);
  }

  @Test
  void a_wide_record_read_under_a_50_ms_max_comes_in_partial_pages_that_cover_every_item_once()
      throws Exception {
    int count = 25_000;
    load("kv_slo", "wide", count);
    double partialBefore = server.metric("varve_kv_read_pages_partial_total");
    List<String> keys = new ArrayList<>(count);
    List<Long> millis = new ArrayList<>();
    int partial = 0;
    String token = "";
    do {
      long start = System.nanoTime();
      GetItemsResponse page =
          grpc.withDeadlineAfter(5, TimeUnit.SECONDS)
              .getItems(
                  GetItemsRequest.newBuilder()
                      .setNamespace("kv_slo")
                      .setId("wide")
                      .setPageToken(token)
                      .build());
      millis.add((System.nanoTime() - start) / 1_000_000);
      page.getItemsList().forEach(i -> keys.add(i.getKey().toStringUtf8()));
      if (page.getPartial()) {
        partial++;
        assertThat(page.getNextPageToken()).isNotEmpty();
      }
      token = page.getNextPageToken();
    } while (!token.isEmpty());

    List<Long> sorted = millis.stream().sorted().toList();
    System.out.printf(
        "%d items under a 50 ms max: %d pages, %d partial, call ms p50 %d p99 %d max %d%n",
        count,
        millis.size(),
        partial,
        sorted.get(sorted.size() / 2),
        sorted.get(sorted.size() * 99 / 100),
        sorted.get(sorted.size() - 1));
    assertThat(keys).hasSize(count);
    for (int i = 0; i < count; i++) {
      assertThat(keys.get(i)).isEqualTo(key(i));
    }
    // without the max, one 2 MiB page would hold the whole record
    assertThat(partial).isGreaterThan(1);
    assertThat(server.metric("varve_kv_read_pages_partial_total") - partialBefore)
        .isGreaterThanOrEqualTo(partial);
    // every call answered within its gRPC deadline (above); most within twice the 50 ms max, even
    // on a loaded test machine where a thread may wait long for a core
    assertThat(sorted.get(sorted.size() / 2)).isLessThan(100);
  }

  @Test
  void a_call_past_its_grpc_deadline_leaves_no_work_running_and_counts_the_cancelled_fetch()
      throws Exception {
    create(
        "kv_slo_patient",
        "\"slos\": {\"read\": {\"latency\": {\"target\": \"1s\", \"max\": \"60s\"}}}");
    load("kv_slo_patient", "slow", 2_000);
    GetItemsRequest read =
        GetItemsRequest.newBuilder().setNamespace("kv_slo_patient").setId("slow").build();
    // a first read prepares the statements (a prepare in flight at the deadline is no fetch)
    assertThat(grpc.getItems(read).getItemsCount()).isEqualTo(2_000);
    // every answer of Cassandra now takes 4 s: the first fetch outlives a 1.5 s deadline (long
    // enough for the call to reach the handler on a loaded machine)
    slo.delay(Duration.ofSeconds(4));
    double cancelledBefore = server.metric("varve_kv_read_fetches_cancelled_total");
    assertThatThrownBy(() -> grpc.withDeadlineAfter(1500, TimeUnit.MILLISECONDS).getItems(read))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.DEADLINE_EXCEEDED));
    // the fetch in flight is cancelled at the deadline, not left to finish 2.5 s later
    slo.assertCancelledAndNothingRunning(
        "varve_kv_read_fetches_cancelled_total", cancelledBefore, "varve_kv_reads_running");
  }

  @Test
  void the_handshake_returns_the_objectives_limits_and_capabilities_over_json_and_grpc() {
    TestServer.Reply json =
        server.post(
            "Handshake",
            "{\"namespace\": \"kv_slo\", \"client\": {\"name\": \"varve-java\", \"version\": \"0.1.0\","
                + " \"capabilities\": [\"partial_returns\"]}}");
    assertThat(json.status()).as(json.body().toString()).isEqualTo(200);
    JsonNode body = json.body();
    assertThat(body.path("service").asText()).isEqualTo("KEY_VALUE");
    assertThat(body.path("slos").path("GetItems").path("latency").path("max").asText())
        .isEqualTo("0.050s");
    assertThat(body.path("slos").path("PutItems").path("latency").path("target").asText())
        .isEqualTo("0.020s");
    assertThat(body.path("capabilities").path("partialReturns").asBoolean()).isTrue();
    assertThat(body.path("capabilities").path("pointReadCache").asBoolean()).isFalse();
    assertThat(body.path("keyValueLimits").path("maxPageSizeBytes").asInt())
        .isEqualTo(16 * 1024 * 1024);
    assertThat(body.path("keyValueLimits").path("maxTokenLead").asText()).isEqualTo("10s");
    assertThat(body.path("refreshInterval").asText()).isNotEmpty();

    HandshakeResponse grpcAnswer =
        grpc.handshake(HandshakeRequest.newBuilder().setNamespace("kv_slo").build());
    assertThat(grpcAnswer.getSlosMap()).containsOnlyKeys(KvSlos.CATALOG.endpoints().keySet());
    assertThat(grpcAnswer.getKeyValueLimits().getMaxItemsPerRequest()).isEqualTo(1000);
  }

  @Test
  void the_handshake_shows_an_update_of_the_objectives_at_once() {
    create("kv_slo_shake", "");
    long version =
        grpc.handshake(HandshakeRequest.newBuilder().setNamespace("kv_slo_shake").build())
            .getNamespaceVersion();
    TestServer.Reply updated =
        server.post(
            "UpdateNamespace",
            namespace(
                "kv_slo_shake",
                "\"slos\": {\"read\": {\"latency\": {\"target\": \"0.2s\", \"max\": \"0.4s\"}}}"));
    assertThat(updated.status()).as(updated.body().toString()).isEqualTo(200);

    HandshakeResponse after =
        grpc.handshake(HandshakeRequest.newBuilder().setNamespace("kv_slo_shake").build());

    assertThat(after.getNamespaceVersion()).isGreaterThan(version);
    assertThat(after.getSlosOrThrow("ScanItems").getLatency().getMax().getNanos())
        .isEqualTo(400_000_000);
  }

  @Test
  void a_handshake_with_bad_signals_is_refused_naming_the_field() {
    TestServer.Reply tooMany =
        server.post(
            "Handshake",
            "{\"namespace\": \"kv_slo\", \"client\": {\"capabilities\": ["
                + String.join(",", java.util.Collections.nCopies(33, "\"x\""))
                + "]}}");
    assertThat(tooMany.status()).isEqualTo(400);
    assertThat(tooMany.errorField()).isEqualTo("client.capabilities");
    TestServer.Reply empty =
        server.post(
            "Handshake", "{\"namespace\": \"kv_slo\", \"client\": {\"capabilities\": [\"\"]}}");
    assertThat(empty.errorField()).isEqualTo("client.capabilities[0]");
    TestServer.Reply longName =
        server.post(
            "Handshake",
            "{\"namespace\": \"kv_slo\", \"client\": {\"name\": \"" + "n".repeat(129) + "\"}}");
    assertThat(longName.errorField()).isEqualTo("client.name");
    assertThat(server.post("Handshake", "{\"namespace\": \"kv_nowhere\"}").status()).isEqualTo(404);
  }

  @Test
  void a_handshake_counts_signals_in_characters_an_emoji_as_one() {
    String emoji = "\uD83D\uDE00";
    TestServer.Reply taken =
        server.post(
            "Handshake",
            "{\"namespace\": \"kv_slo\", \"client\": {\"name\": \""
                + emoji.repeat(128)
                + "\", \"capabilities\": [\""
                + emoji.repeat(64)
                + "\"]}}");
    assertThat(taken.status()).as(taken.body().toString()).isEqualTo(200);
    TestServer.Reply refused =
        server.post(
            "Handshake",
            "{\"namespace\": \"kv_slo\", \"client\": {\"name\": \"" + emoji.repeat(129) + "\"}}");
    assertThat(refused.errorMessage())
        .isEqualTo(
            "client.name: \""
                + emoji.repeat(77)
                + "...\" (expected: 0..128 characters (Unicode code points))");
  }
}
