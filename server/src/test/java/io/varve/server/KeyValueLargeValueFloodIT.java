package io.varve.server;

import static io.varve.server.ChunkFixtures.get;
import static io.varve.server.ChunkFixtures.put;
import static io.varve.server.ChunkFixtures.random;
import static io.varve.server.ChunkFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;

import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.KeyValueGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Disabled;
import org.junit.jupiter.api.Test;

/**
 * A hostile client against a small server: eight PutItems of 60 MiB values at once, 480 MiB of
 * request bodies, on a server process whose whole heap is 512 MiB. Admission control must keep it
 * alive: each call is either written whole or refused with RESOURCE_EXHAUSTED, never an internal
 * error or a dead process, and the server serves normally afterwards.
 */
class KeyValueLargeValueFloodIT {

  static final String META = "varve_kv_flood_it";
  static final String KS = "kv_flood_it";
  static final int MIB = 1024 * 1024;
  static final int CALLS = 8;
  static final int VALUE_BYTES = 60 * MIB;

  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer(META, KS);
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "flood", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_flood_it", "table": "items"}}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Disabled(
      "fails today: the eight bodies reach the server's direct memory (netty, 512 MiB) before"
          + " admission control refuses any of them, and every call ends UNKNOWN (the process lives"
          + " on); with two calls at once one is written and one refused, as expected")
  @Test
  void eight_60_mib_puts_at_once_on_a_512_mib_server_are_written_whole_or_refused_and_it_lives_on()
      throws Exception {
    Path dir = Files.createTempDirectory("varve-kv-flood");
    Process small =
        ChunkCrashServerMain.start(META, dir, List.of("-Xmx512m", "-XX:+ExitOnOutOfMemoryError"));
    ExecutorService callers = Executors.newFixedThreadPool(CALLS);
    try {
      int port = ChunkCrashServerMain.awaitPort(small, dir);
      KeyValueGrpc.KeyValueBlockingStub client =
          GrpcClients.builder("http://127.0.0.1:" + port)
              .maxResponseLength(0)
              .maxResponseMessageLength(-1)
              .maxRequestMessageLength(-1)
              .responseTimeout(Duration.ofMinutes(5))
              .build(KeyValueGrpc.KeyValueBlockingStub.class);
      // two distinct contents (the client's own heap), told apart by record
      byte[][] values = {random(VALUE_BYTES, 1), random(VALUE_BYTES, 2)};
      List<CompletableFuture<Status.Code>> calls = new ArrayList<>();
      for (int i = 0; i < CALLS; i++) {
        int call = i;
        calls.add(
            CompletableFuture.supplyAsync(
                () -> {
                  try {
                    client.putItems(
                        put("flood", "r" + call, token(Instant.now()), "k", values[call % 2]));
                    return Status.Code.OK;
                  } catch (StatusRuntimeException e) {
                    return e.getStatus().getCode();
                  }
                },
                callers));
      }
      List<Status.Code> codes = new ArrayList<>();
      for (CompletableFuture<Status.Code> call : calls) {
        codes.add(call.join());
      }
      System.out.println("eight 60 MiB puts on a 512 MiB server: " + codes);
      assertThat(small.isAlive()).as("the server survived the flood").isTrue();
      assertThat(codes)
          .as("every call written or refused for lack of resources")
          .allMatch(c -> c == Status.Code.OK || c == Status.Code.RESOURCE_EXHAUSTED)
          .contains(Status.Code.OK);
      // what was acknowledged is there whole; what was refused left nothing behind
      for (int i = 0; i < CALLS; i++) {
        var item = get(ChunkFixtures.grpc(server), "flood", "r" + i, "k");
        if (codes.get(i) == Status.Code.OK) {
          assertThat(item).isNotNull();
          assertThat(Arrays.equals(item.getValue().toByteArray(), values[i % 2])).isTrue();
        } else {
          assertThat(item).isNull();
        }
      }
      // and the small server still serves
      client.putItems(put("flood", "after", token(Instant.now()), "k", random(100, 3)));
      assertThat(small.isAlive()).isTrue();
    } finally {
      callers.shutdownNow();
      small.destroyForcibly();
    }
  }
}
