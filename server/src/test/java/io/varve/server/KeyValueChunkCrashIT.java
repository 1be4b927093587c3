package io.varve.server;

import static io.varve.server.ChunkFixtures.chunkRows;
import static io.varve.server.ChunkFixtures.get;
import static io.varve.server.ChunkFixtures.put;
import static io.varve.server.ChunkFixtures.random;
import static io.varve.server.ChunkFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;

import io.varve.api.kv.v1.KeyValueGrpc;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A server process SIGKILLed between staging the chunks of a value and committing it: readers see
 * the old value whole, never a mix, and the sweeper removes the abandoned chunks.
 */
class KeyValueChunkCrashIT {

  static final String META = "varve_kv_chunk_crash_it";
  static final String KS = "kv_chunk_crash_it";
  static final int MIB = 1024 * 1024;

  static TestServer server;

  @BeforeAll
  static void start() {
    server = new TestServer(META, KS);
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "crash", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_chunk_crash_it", "table": "items"}}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void a_server_killed_between_staging_and_commit_leaves_the_old_value_and_its_chunks_are_swept()
      throws Exception {
    KeyValueGrpc.KeyValueBlockingStub grpc = ChunkFixtures.grpc(server);
    byte[] old = random(3 * MIB + 5, 31);
    grpc.putItems(put("crash", "r", token(Instant.now().minusMillis(10)), "k", old));
    assertThat(chunkRows(server, KS, "items", "r")).isEqualTo(4);

    Path dir = Files.createTempDirectory("varve-chunk-crash");
    long deadline = System.nanoTime() + Duration.ofSeconds(90).toNanos();
    // the test-only hook: the doomed server pauses after staging, before committing
    Process doomed =
        ChunkCrashServerMain.start(
            META, dir, List.of("-Dvarve.test.kv.pauseAfterChunkStaging=600000"));
    try {
      int port = ChunkCrashServerMain.awaitPort(doomed, dir);
      KeyValueGrpc.KeyValueBlockingStub doomedClient =
          com.linecorp.armeria.client.grpc.GrpcClients.builder("http://127.0.0.1:" + port)
              .responseTimeout(Duration.ofMinutes(10))
              .build(KeyValueGrpc.KeyValueBlockingStub.class);
      byte[] next = random(5 * MIB, 32);
      CompletableFuture<Object> write =
          CompletableFuture.supplyAsync(
              () -> doomedClient.putItems(put("crash", "r", token(Instant.now()), "k", next)));
      // staged: the new value's 5 chunks are all there beside the old value's 4
      while (chunkRows(server, KS, "items", "r") < 9) {
        assertThat(write).as("the write pauses before its commit").isNotDone();
        assertThat(System.nanoTime()).as("the chunks are staged").isLessThan(deadline);
        Thread.sleep(100);
      }
      // a reader while the chunks are staged, not committed: the old value
      assertThat(Arrays.equals(get(grpc, "crash", "r", "k").getValue().toByteArray(), old))
          .isTrue();
      doomed.destroyForcibly(); // SIGKILL
      assertThat(doomed.waitFor()).isEqualTo(137);
    } finally {
      doomed.destroyForcibly();
    }
    // after the crash: the old value, whole, never a mix
    var read = get(grpc, "crash", "r", "k");
    assertThat(read.getMetadata().getValueSize()).isEqualTo(old.length);
    assertThat(Arrays.equals(read.getValue().toByteArray(), old)).isTrue();
    assertThat(chunkRows(server, KS, "items", "r")).isEqualTo(9);

    // the sweeper, once the grace has passed, removes the abandoned chunks and only those
    var swept = ChunkFixtures.sweep(server, META, Duration.ofHours(1));
    assertThat(swept.chunksRemoved()).isEqualTo(5);
    assertThat(chunkRows(server, KS, "items", "r")).isEqualTo(4);
    assertThat(Arrays.equals(get(grpc, "crash", "r", "k").getValue().toByteArray(), old)).isTrue();
  }
}
