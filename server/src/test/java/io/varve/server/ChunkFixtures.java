package io.varve.server;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.cassandra.kv.CqlChunkLog;
import io.varve.cassandra.kv.CqlChunkSweep;
import io.varve.cassandra.kv.CqlChunkTables;
import io.varve.core.kv.ChunkSweep;
import io.varve.core.kv.KvChunking;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Random;
import java.util.UUID;

/** Helpers of the tests of chunked values: clients, tokens, chunk counts and sweeps. */
final class ChunkFixtures {

  private ChunkFixtures() {}

  /** A gRPC client without the default 10 MiB response limit. */
  static KeyValueGrpc.KeyValueBlockingStub grpc(TestServer server) {
    return GrpcClients.builder("http://127.0.0.1:" + server.server.port())
        .maxResponseLength(0)
        .maxResponseMessageLength(-1)
        .maxRequestMessageLength(-1)
        .responseTimeout(Duration.ofMinutes(2))
        .build(KeyValueGrpc.KeyValueBlockingStub.class);
  }

  /** Creates KeyValue namespace {@code ns} in {@code dataset}, table {@code items}. */
  static void createNamespace(TestServer server, String ns, String dataset) {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \""
                + ns
                + "\", \"service\": \"KEY_VALUE\", \"persistence_configuration\": [{\"id\":"
                + " \"PRIMARY_STORAGE\", \"physical_storage\": {\"dataset\": \""
                + dataset
                + "\", \"table\": \"items\"}}]}");
    org.assertj.core.api.Assertions.assertThat(created.status())
        .as(created.body().toString())
        .isEqualTo(200);
  }

  static IdempotencyToken token(Instant at) {
    return IdempotencyToken.newBuilder()
        .setGenerationTime(
            Timestamp.newBuilder()
                .setSeconds(at.getEpochSecond())
                .setNanos(at.getNano() / 1000 * 1000))
        .setToken(UUID.randomUUID().toString())
        .build();
  }

  static byte[] random(int size, long seed) {
    byte[] bytes = new byte[size];
    new Random(seed).nextBytes(bytes);
    return bytes;
  }

  static PutItemsRequest put(
      String ns, String id, IdempotencyToken token, String key, byte[] value) {
    return PutItemsRequest.newBuilder()
        .setNamespace(ns)
        .setId(id)
        .setIdempotencyToken(token)
        .addItems(
            Item.newBuilder()
                .setKey(ByteString.copyFromUtf8(key))
                .setValue(com.google.protobuf.UnsafeByteOperations.unsafeWrap(value)))
        .build();
  }

  /**
   * The signal of a client that takes response messages of any size, as the stub of {@link #grpc}
   * does: large values come whole, in one message.
   */
  static final java.util.Map<String, com.google.protobuf.Struct> LARGE_MESSAGES =
      java.util.Map.of(
          "messages",
          com.google.protobuf.Struct.newBuilder()
              .putFields(
                  "maxBytes",
                  com.google.protobuf.Value.newBuilder().setNumberValue(Integer.MAX_VALUE).build())
              .build());

  /**
   * The one item of {@code key} as GetItems returns it whole ({@link #LARGE_MESSAGES}), or null.
   */
  static Item get(KeyValueGrpc.KeyValueBlockingStub grpc, String ns, String id, String key) {
    var page =
        grpc.getItems(
            GetItemsRequest.newBuilder()
                .setNamespace(ns)
                .setId(id)
                .putAllSignals(LARGE_MESSAGES)
                .setPredicate(
                    io.varve.api.kv.v1.Predicate.newBuilder()
                        .setMatchKeys(
                            io.varve.api.kv.v1.MatchKeys.newBuilder()
                                .addKeys(ByteString.copyFromUtf8(key))))
                .build());
    return page.getItemsCount() == 0 ? null : page.getItems(0);
  }

  static final com.fasterxml.jackson.databind.ObjectMapper LARGE_JSON =
      new com.fasterxml.jackson.databind.ObjectMapper(
          com.fasterxml.jackson.core.JsonFactory.builder()
              .streamReadConstraints(
                  com.fasterxml.jackson.core.StreamReadConstraints.builder()
                      .maxStringLength(Integer.MAX_VALUE)
                      .build())
              .build());

  /** {@code POST /v1/<rpc>}, its answer parsed without a bound on string sizes. */
  static com.fasterxml.jackson.databind.JsonNode postLarge(
      TestServer server, String rpc, String body) throws Exception {
    var response =
        java.net.http.HttpClient.newHttpClient()
            .send(
                java.net.http.HttpRequest.newBuilder(
                        java.net.URI.create(server.base() + "/v1/" + rpc))
                    .header("Content-Type", "application/json")
                    .POST(java.net.http.HttpRequest.BodyPublishers.ofString(body))
                    .build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
    return LARGE_JSON.readTree(response.body());
  }

  /** Rows of the chunk table of {@code keyspace.table} for record {@code id}. */
  static long chunkRows(TestServer server, String keyspace, String table, String id) {
    return server
        .cql
        .execute(
            "SELECT id FROM "
                + keyspace
                + "."
                + CqlChunkTables.name(table)
                + " WHERE id = ? ALLOW FILTERING",
            id)
        .all()
        .size();
  }

  /** One sweeper pass as if {@code ahead} had passed: every staged value is then past its grace. */
  static ChunkSweep.Result sweep(TestServer server, String metadataKeyspace, Duration ahead) {
    CqlChunkLog log = CqlChunkLog.open(server.cql, metadataKeyspace, Duration.ofSeconds(30));
    Clock later = Clock.fixed(Instant.now().plus(ahead), ZoneOffset.UTC);
    return new CqlChunkSweep(server.cql, log, KvChunking.DEFAULT, later)
        .pass()
        .toCompletableFuture()
        .join();
  }
}
