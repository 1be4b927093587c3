package io.varve.server;

import static io.varve.server.ChunkFixtures.put;
import static io.varve.server.ChunkFixtures.random;
import static io.varve.server.ChunkFixtures.token;
import static java.nio.charset.StandardCharsets.UTF_8;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.google.protobuf.ByteString;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.Selection;
import io.varve.core.kv.BytePage;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.function.Function;
import java.util.function.Supplier;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A hostile reader against a small server: one 60 MiB value stored, then eight gRPC and eight JSON
 * readers of it at once (GetItems, then ScanItems), on a server process whose whole heap is 512 MiB
 * and which exits on an OutOfMemoryError. What the responses hold is admitted like a request body:
 * each read answers the value byte-exact or is refused with RESOURCE_EXHAUSTED / 429, never an
 * internal error or a dead process, and the server serves normally afterwards.
 */
class KeyValueLargeReadFloodIT {

  static final String META = "varve_kv_read_flood_it";
  static final String KS = "kv_read_flood_it";
  static final int MIB = 1024 * 1024;
  static final int READERS = 8;
  static final int VALUE_BYTES = 60 * MIB;
  static final ObjectMapper JSON = new ObjectMapper();

  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer(META, KS);
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "reads", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_read_flood_it", "table": "items"}}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    // pages of tiny items, read with a latency objective long enough for full pages on a small,
    // busy server (a page cut short to meet a shorter one is partial, and holds fewer items)
    TestServer.Reply tiny =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "tiny_reads", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_read_flood_it", "table": "tiny_items",
           "config": {"slos": {"read": {"latency": {"target": "60s", "max": "60s"}}}}}}]}""");
    assertThat(tiny.status()).as(tiny.body().toString()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  /** An answer: OK with the value read, or the refusal's code. */
  private record Answer(String code, byte[] value) {}

  @Test
  void sixteen_readers_of_a_60_mib_value_on_a_512_mib_server_get_it_whole_or_429_and_it_lives_on()
      throws Exception {
    byte[] value = random(VALUE_BYTES, 11);
    ChunkFixtures.grpc(server).putItems(put("reads", "big", token(Instant.now()), "k", value));
    onSmallServer(
        "varve-kv-read-flood",
        List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError"),
        small -> {
          List<Answer> gets =
              flood(
                  small.callers(),
                  () ->
                      grpcAnswer(() -> small.grpc().getItems(getRequest()).getItems(0).getValue()),
                  () ->
                      jsonAnswer(
                          small.http(),
                          small.url("GetItems"),
                          "{\"namespace\":\"reads\",\"id\":\"big\"}",
                          "/items/0/value"));
          List<Answer> scans =
              flood(
                  small.callers(),
                  () ->
                      grpcAnswer(
                          () ->
                              small
                                  .grpc()
                                  .scanItems(
                                      ScanItemsRequest.newBuilder()
                                          .setNamespace("reads")
                                          .putAllSignals(ChunkFixtures.LARGE_MESSAGES)
                                          .build())
                                  .getItems(0)
                                  .getItem()
                                  .getValue()),
                  () ->
                      jsonAnswer(
                          small.http(),
                          small.url("ScanItems"),
                          "{\"namespace\":\"reads\"}",
                          "/items/0/item/value"));
          System.out.println(
              "16 GetItems of 60 MiB on a 512 MiB server: "
                  + gets.stream().map(Answer::code).toList()
                  + "; 16 ScanItems: "
                  + scans.stream().map(Answer::code).toList());

          assertThat(small.process().isAlive()).as("the server survived the readers").isTrue();
          for (List<Answer> answers : List.of(gets, scans)) {
            assertAnsweredOrRefused(answers);
            for (Answer a : answers) {
              if (a.code().equals("OK")) {
                assertThat(Arrays.equals(a.value(), value))
                    .as("the value read is the value written")
                    .isTrue();
              }
            }
          }
          // and the small server still serves a read of the large value, alone
          assertThat(small.grpc().getItems(getRequest()).getItems(0).getValue().size())
              .isEqualTo(VALUE_BYTES);
          assertThat(small.process().isAlive()).isTrue();
        });
  }

  @Test
  void an_out_of_memory_error_that_admission_did_not_prevent_ends_the_process_not_in_500s()
      throws Exception {
    // a read budget far beyond the heap, as a misconfigured server would have: admission cannot
    // protect it, and the server must not go on serving from a JVM in an unknown state
    byte[] value = random(VALUE_BYTES, 12);
    ChunkFixtures.grpc(server).putItems(put("reads", "big", token(Instant.now()), "k", value));
    onSmallServer(
        "varve-kv-read-oom",
        List.of(
            "-Xmx256m",
            "-XX:+ExitOnOutOfMemoryError",
            "-D" + ChunkCrashServerMain.READ_BYTES_PROPERTY + "=" + (64L << 30)),
        small -> {
          List<Answer> answers = new ArrayList<>();
          for (int round = 0; round < 3 && small.process().isAlive(); round++) {
            answers.addAll(
                flood(
                    small.callers(),
                    () ->
                        grpcAnswer(
                            () -> small.grpc().getItems(getRequest()).getItems(0).getValue()),
                    () ->
                        jsonAnswer(
                            small.http(),
                            small.url("GetItems"),
                            "{\"namespace\":\"reads\",\"id\":\"big\"}",
                            "/items/0/value")));
          }
          System.out.println(
              "GetItems of 60 MiB on a 256 MiB server admitting everything: "
                  + answers.stream().map(Answer::code).toList());

          assertThat(small.process().waitFor(60, java.util.concurrent.TimeUnit.SECONDS))
              .as("the server exited on its OutOfMemoryError")
              .isTrue();
          assertThat(small.process().exitValue())
              .as("the JVM's exit status on OutOfMemoryError")
              .isEqualTo(3);
          assertThat(Files.readString(small.dir().resolve("server.log")))
              .contains("Terminating due to java.lang.OutOfMemoryError");
          assertThat(answers)
              .as("no answer carries the JVM's error")
              .noneMatch(a -> a.code().contains("OutOfMemory") || a.code().contains("heap space"));
        });
  }

  @Test
  void sixteen_readers_of_pages_of_tiny_items_on_a_512_mib_server_get_them_or_429_and_it_lives_on()
      throws Exception {
    // 16 MiB pages of 5-byte items: without the bound on items a page would take every item, each
    // a few hundred bytes of objects on the server, with the response memory counting 5 bytes
    int count = BytePage.MAX_ITEMS + 100;
    KeyValueGrpc.KeyValueBlockingStub writer = ChunkFixtures.grpc(server);
    for (int start = 0; start < count; start += 1000) {
      PutItemsRequest.Builder put =
          PutItemsRequest.newBuilder()
              .setNamespace("tiny_reads")
              .setId("tiny")
              .setIdempotencyToken(token(Instant.now()));
      for (int i = start; i < Math.min(count, start + 1000); i++) {
        put.addItems(
            Item.newBuilder()
                .setKey(ByteString.copyFromUtf8(Integer.toString(i, 36)))
                .setValue(ByteString.copyFrom(new byte[] {7})));
      }
      writer.putItems(put.build());
    }
    onSmallServer(
        "varve-kv-tiny-flood",
        // the storage timeout well above what 16 such pages take on two cores shared with
        // Cassandra and a server seconds old, its compilers busy: this test is about memory, and a
        // driver whose threads decode 65,536 rows a page for 16 readers can take more than 5 s
        List.of(
            "-Xmx512m",
            "-XX:+ExitOnOutOfMemoryError",
            "-D" + ChunkCrashServerMain.REQUEST_TIMEOUT_PROPERTY + "=PT60S"),
        small -> {
          GetItemsRequest page =
              GetItemsRequest.newBuilder()
                  .setNamespace("tiny_reads")
                  .setId("tiny")
                  .setSelection(Selection.newBuilder().setPageSizeBytes(16 * MIB))
                  .putAllSignals(ChunkFixtures.LARGE_MESSAGES)
                  .build();
          List<Answer> answers =
              flood(
                  small.callers(),
                  () ->
                      grpcAnswer(
                          () ->
                              ByteString.copyFromUtf8(
                                  Integer.toString(small.grpc().getItems(page).getItemsCount()))),
                  () ->
                      jsonAnswer(
                          small.http(),
                          small.url("GetItems"),
                          "{\"namespace\":\"tiny_reads\",\"id\":\"tiny\","
                              + "\"selection\":{\"page_size_bytes\":"
                              + 16 * MIB
                              + "}}",
                          p -> Integer.toString(p.at("/items").size()).getBytes(UTF_8)));
          System.out.println(
              "16 GetItems of 16 MiB pages of tiny items on a 512 MiB server: "
                  + answers.stream().map(Answer::code).toList());
          assertThat(small.process().isAlive()).as("the server survived the readers").isTrue();
          assertAnsweredOrRefused(answers);
          for (Answer a : answers) {
            if (a.code().equals("OK")) {
              assertThat(new String(a.value(), UTF_8))
                  .as("a page of the most items a page holds")
                  .isEqualTo(Integer.toString(BytePage.MAX_ITEMS));
            }
          }
          assertThat(small.grpc().getItems(page).getItemsCount()).isEqualTo(BytePage.MAX_ITEMS);
        });
  }

  /** A small server in a JVM of its own, its clients, and the threads that flood it. */
  private record Small(
      Process process,
      Path dir,
      int port,
      KeyValueGrpc.KeyValueBlockingStub grpc,
      HttpClient http,
      ExecutorService callers) {

    String url(String rpc) {
      return "http://127.0.0.1:" + port + "/v1/" + rpc;
    }
  }

  /** What a test does with the small server. */
  private interface OnSmall {
    void run(Small small) throws Exception;
  }

  /**
   * Starts a small server with these JVM options (its files in a new directory named after {@code
   * name}), runs {@code test} on it, and kills it.
   */
  private static void onSmallServer(String name, List<String> jvmOptions, OnSmall test)
      throws Exception {
    Path dir = Files.createTempDirectory(name);
    Process small = ChunkCrashServerMain.start(META, dir, jvmOptions);
    ExecutorService callers = Executors.newFixedThreadPool(2 * READERS);
    try {
      int port = ChunkCrashServerMain.awaitPort(small, dir);
      test.run(
          new Small(
              small,
              dir,
              port,
              grpc(port),
              HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build(),
              callers));
    } finally {
      callers.shutdownNow();
      small.destroyForcibly();
    }
  }

  /** Every read answered, or refused for lack of resources, and at least one answered. */
  private static void assertAnsweredOrRefused(List<Answer> answers) {
    assertThat(answers)
        .as("every read answered or refused for lack of resources")
        .allMatch(a -> a.code().equals("OK") || a.code().equals("RESOURCE_EXHAUSTED"))
        .anyMatch(a -> a.code().equals("OK"));
  }

  /** A gRPC client of the small server without a bound on response sizes. */
  private static KeyValueGrpc.KeyValueBlockingStub grpc(int port) {
    return GrpcClients.builder("http://127.0.0.1:" + port)
        .maxResponseLength(0)
        .maxResponseMessageLength(-1)
        .responseTimeout(Duration.ofMinutes(5))
        .build(KeyValueGrpc.KeyValueBlockingStub.class);
  }

  private static GetItemsRequest getRequest() {
    return GetItemsRequest.newBuilder()
        .setNamespace("reads")
        .setId("big")
        .putAllSignals(ChunkFixtures.LARGE_MESSAGES)
        .build();
  }

  /** READERS calls of each kind at once, their answers in order. */
  private static List<Answer> flood(
      ExecutorService callers, Supplier<Answer> grpcCall, Supplier<Answer> jsonCall) {
    List<CompletableFuture<Answer>> calls = new ArrayList<>();
    for (int i = 0; i < READERS; i++) {
      calls.add(CompletableFuture.supplyAsync(grpcCall, callers));
      calls.add(CompletableFuture.supplyAsync(jsonCall, callers));
    }
    return calls.stream().map(CompletableFuture::join).toList();
  }

  private static Answer grpcAnswer(Supplier<ByteString> call) {
    try {
      return new Answer("OK", call.get().toByteArray());
    } catch (StatusRuntimeException e) {
      return new Answer(
          e.getStatus().getCode() == io.grpc.Status.Code.RESOURCE_EXHAUSTED
              ? "RESOURCE_EXHAUSTED"
              : e.getStatus().getCode() + " " + e.getStatus().getDescription(),
          null);
    }
  }

  private static Answer jsonAnswer(HttpClient http, String url, String body, String valuePath) {
    return jsonAnswer(
        http, url, body, page -> Base64.getDecoder().decode(page.at(valuePath).asText()));
  }

  /** A JSON call: OK with what {@code value} reads of the page, or the refusal's code. */
  private static Answer jsonAnswer(
      HttpClient http, String url, String body, Function<JsonNode, byte[]> value) {
    try {
      HttpResponse<byte[]> response =
          http.send(
              HttpRequest.newBuilder(URI.create(url))
                  .timeout(Duration.ofMinutes(5))
                  .header("Content-Type", "application/json")
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofByteArray());
      if (response.statusCode() == 200) {
        return new Answer("OK", value.apply(ChunkFixtures.LARGE_JSON.readTree(response.body())));
      }
      JsonNode error = JSON.readTree(response.body());
      String code = error.at("/error/code").asText();
      // a refusal is a 429 with the code of gRPC's status, anything else is reported as it came
      return new Answer(
          response.statusCode() == 429 ? code : response.statusCode() + " " + error, null);
    } catch (Exception e) {
      return new Answer("client failure: " + e, null);
    }
  }
}
