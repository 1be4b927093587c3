package io.varve.server;

import static io.varve.server.ChunkFixtures.chunkRows;
import static io.varve.server.ChunkFixtures.get;
import static io.varve.server.ChunkFixtures.put;
import static io.varve.server.ChunkFixtures.random;
import static io.varve.server.ChunkFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.Zstd;
import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MatchAll;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.MatchRange;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.Selection;
import io.varve.core.kv.ChunkSweep;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.ValueMetadata;
import io.varve.server.config.ServerSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Values above the chunking threshold, end to end on the real local Cassandra. */
class KeyValueChunksIT {

  static final String META = "varve_kv_chunks_it";
  static final String KS = "kv_chunks_it";
  static final int MIB = KvLimits.MIB;
  static final int MAX_VALUE = 40 * MIB;

  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub grpc;

  @BeforeAll
  static void start() {
    KvChunking chunking =
        new KvChunking(
            MIB,
            MIB,
            MAX_VALUE,
            4,
            Duration.ofHours(1), // the tests run the sweeper's passes themselves
            Duration.ofMinutes(15),
            Duration.ofHours(1),
            500);
    server =
        new TestServer(ServerSettings.defaults().toBuilder().kvChunks(chunking).build(), META, KS);
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "chunks", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_chunks_it", "table": "items"}}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    grpc = ChunkFixtures.grpc(server);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void the_control_plane_creates_the_chunk_table_beside_the_item_table() {
    Row table =
        server
            .cql
            .execute(
                "SELECT table_name FROM system_schema.tables WHERE keyspace_name = ? AND"
                    + " table_name = 'items_chunks'",
                KS)
            .one();
    assertThat(table).isNotNull();
  }

  @Test
  void a_20_mib_value_round_trips_byte_exact_over_grpc_and_json() throws Exception {
    byte[] value = random(20 * MIB, 1);
    grpc.putItems(put("chunks", "big", token(Instant.now()), "grpc", value));
    Item read = get(grpc, "chunks", "big", "grpc");
    assertThat(read.getMetadata().getValueSize()).isEqualTo(value.length);
    assertThat(Arrays.equals(read.getValue().toByteArray(), value)).isTrue();
    assertThat(chunkRows(server, KS, "items", "big")).isEqualTo(20);

    String b64 = Base64.getEncoder().encodeToString(value);
    Instant now = Instant.now();
    TestServer.Reply put =
        server.post(
            "PutItems",
            "{\"namespace\": \"chunks\", \"id\": \"big\", \"idempotency_token\": {\"generation_time\": \""
                + now
                + "\", \"token\": \"json\"}, \"items\": [{\"key\": \""
                + b64("json")
                + "\", \"value\": \""
                + b64
                + "\"}]}");
    assertThat(put.status()).as(put.body().toString()).isEqualTo(200);
    JsonNode got =
        ChunkFixtures.postLarge(
            server,
            "GetItems",
            "{\"namespace\": \"chunks\", \"id\": \"big\", \"predicate\": {\"match_keys\": {\"keys\": [\""
                + b64("json")
                + "\"]}}}");
    JsonNode item = got.path("items").get(0);
    assertThat(Arrays.equals(Base64.getDecoder().decode(item.path("value").asText()), value))
        .isTrue();
  }

  @Test
  void values_beyond_the_other_services_request_limit_are_accepted_over_grpc_and_json() {
    // timeseries.limits.maxRequestBytes (32 MiB) bounds every other request; KeyValue requests
    // follow kv.chunks.maxValueBytes (40 MiB here): a 36 MiB value is a 36 MiB gRPC message and a
    // 48 MiB JSON body
    byte[] value = random(36 * MIB, 2);
    grpc.putItems(put("chunks", "beyond", token(Instant.now()), "grpc", value));
    assertThat(Arrays.equals(get(grpc, "chunks", "beyond", "grpc").getValue().toByteArray(), value))
        .isTrue();
    TestServer.Reply put =
        server.post(
            "PutItems",
            "{\"namespace\": \"chunks\", \"id\": \"beyond\", \"idempotency_token\":"
                + " {\"generation_time\": \""
                + Instant.now()
                + "\", \"token\": \"large\"}, \"items\": [{\"key\": \""
                + b64("json")
                + "\", \"value\": \""
                + Base64.getEncoder().encodeToString(value)
                + "\"}, {\"key\": \""
                + b64("small")
                + "\", \"value\": \""
                + b64("x")
                + "\"}]}");
    assertThat(put.status()).as(put.body().toString()).isEqualTo(200);
    assertThat(Arrays.equals(get(grpc, "chunks", "beyond", "json").getValue().toByteArray(), value))
        .isTrue();
    assertThat(get(grpc, "chunks", "beyond", "small").getValue().toStringUtf8()).isEqualTo("x");
  }

  @Test
  void values_at_the_threshold_stay_in_their_row_and_one_byte_more_goes_to_chunks() {
    for (int size : new int[] {MIB - 1, MIB, MIB + 1}) {
      byte[] value = random(size, size);
      String key = "v" + size;
      grpc.putItems(put("chunks", "threshold", token(Instant.now()), key, value));
      assertThat(
              Arrays.equals(get(grpc, "chunks", "threshold", key).getValue().toByteArray(), value))
          .as("size " + size)
          .isTrue();
      ValueMetadata stored = metadata("threshold", key);
      assertThat(stored.chunks()).as("size " + size).isEqualTo(size > MIB ? 2 : 0);
    }
    assertThat(chunkRows(server, KS, "items", "threshold")).isEqualTo(2);
  }

  @Test
  void a_newer_commit_replaces_an_older_one_whole_whatever_the_arrival_order() {
    Instant t2 = Instant.now();
    byte[] second = random(3 * MIB, 22);
    byte[] first = random(5 * MIB + 7, 11);
    grpc.putItems(put("chunks", "lww", token(t2), "k", second));
    grpc.putItems(put("chunks", "lww", token(t2.minusMillis(5)), "k", first));
    Item read = get(grpc, "chunks", "lww", "k");
    assertThat(Arrays.equals(read.getValue().toByteArray(), second)).isTrue();
    assertThat(read.getMetadata().getValueSize()).isEqualTo(second.length);
    assertThat(chunkRows(server, KS, "items", "lww")).isEqualTo(3 + 6);

    ChunkSweep.Result swept = ChunkFixtures.sweep(server, META, Duration.ofHours(1));
    assertThat(swept.chunksRemoved()).isGreaterThanOrEqualTo(6);
    // t1's chunks are gone, t2's stay and still read whole
    assertThat(chunkRows(server, KS, "items", "lww")).isEqualTo(3);
    assertThat(Arrays.equals(get(grpc, "chunks", "lww", "k").getValue().toByteArray(), second))
        .isTrue();
  }

  @Test
  void a_replayed_token_has_one_effect() {
    IdempotencyToken token = token(Instant.now());
    byte[] value = random(2 * MIB + 3, 5);
    grpc.putItems(put("chunks", "replay", token, "k", value));
    grpc.putItems(put("chunks", "replay", token, "k", value));
    assertThat(chunkRows(server, KS, "items", "replay")).isEqualTo(3);
    Row row =
        server
            .cql
            .execute("SELECT WRITETIME(value_metadata) FROM " + KS + ".items WHERE id = 'replay'")
            .one();
    assertThat(row.getLong(0))
        .isEqualTo(
            token.getGenerationTime().getSeconds() * 1_000_000L
                + token.getGenerationTime().getNanos() / 1000);
    assertThat(Arrays.equals(get(grpc, "chunks", "replay", "k").getValue().toByteArray(), value))
        .isTrue();
  }

  @Test
  void chunks_no_commit_refers_to_are_invisible_and_swept() {
    byte[] committed = random(MIB + 100, 8);
    grpc.putItems(put("chunks", "staged", token(Instant.now()), "k", committed));
    // chunks of a later version that never committed (as a crash between staging and commit
    // leaves them), with a log entry as the writer makes it
    long later = (System.currentTimeMillis() + 1000) * 1000;
    for (int i = 0; i < 2; i++) {
      server.cql.execute(
          "INSERT INTO "
              + KS
              + ".items_chunks (id, key, generation, nonce, chunk, data) VALUES ('staged',"
              + " 0x6b, ?, 'ghost', ?, ?) USING TIMESTAMP ?",
          later,
          i,
          java.nio.ByteBuffer.wrap(random(MIB, i)),
          later);
    }
    server.cql.execute(
        "INSERT INTO "
            + META
            + ".kv_chunk_log (shard, due, keyspace_name, table_name, id, key, generation, nonce,"
            + " chunks) VALUES (0, ?, ?, 'items', 'staged', 0x6b, ?, 'ghost', 2)",
        Instant.now(),
        KS,
        later);
    assertThat(
            Arrays.equals(get(grpc, "chunks", "staged", "k").getValue().toByteArray(), committed))
        .isTrue();
    ChunkFixtures.sweep(server, META, Duration.ofHours(1));
    assertThat(chunkRows(server, KS, "items", "staged")).isEqualTo(2); // the committed value's
    assertThat(
            Arrays.equals(get(grpc, "chunks", "staged", "k").getValue().toByteArray(), committed))
        .isTrue();
  }

  @Test
  void each_delete_kind_leaves_its_chunks_to_the_sweeper() {
    for (String id : new String[] {"del-keys", "del-range", "del-all"}) {
      grpc.putItems(
          put("chunks", id, token(Instant.now().minusMillis(50)), "k", random(MIB + 1, 3)));
      assertThat(chunkRows(server, KS, "items", id)).isEqualTo(2);
    }
    delete(
        "del-keys",
        Predicate.newBuilder()
            .setMatchKeys(MatchKeys.newBuilder().addKeys(ByteString.copyFromUtf8("k")))
            .build());
    delete(
        "del-range",
        Predicate.newBuilder()
            .setMatchRange(MatchRange.newBuilder().setStart(ByteString.copyFromUtf8("a")))
            .build());
    delete("del-all", Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build());
    ChunkFixtures.sweep(server, META, Duration.ofHours(1));
    for (String id : new String[] {"del-keys", "del-range", "del-all"}) {
      assertThat(chunkRows(server, KS, "items", id)).as(id).isZero();
      assertThat(get(grpc, "chunks", id, "k")).as(id).isNull();
    }
  }

  @Test
  void keys_only_reads_give_the_size_of_a_chunked_value_without_it() {
    grpc.putItems(put("chunks", "keys-only", token(Instant.now()), "k", random(3 * MIB, 4)));
    var page =
        grpc.getItems(
            GetItemsRequest.newBuilder()
                .setNamespace("chunks")
                .setId("keys-only")
                .setSelection(Selection.newBuilder().setIncludeValues(false))
                .build());
    assertThat(page.getItems(0).getValue().isEmpty()).isTrue();
    assertThat(page.getItems(0).getMetadata().getValueSize()).isEqualTo(3 * MIB);
  }

  @Test
  void a_value_above_the_largest_is_refused_naming_it_and_nothing_is_written() {
    PutItemsRequest tooLarge =
        put("chunks", "too-large", token(Instant.now()), "k", new byte[MAX_VALUE + 1]);
    assertThatThrownBy(() -> grpc.putItems(tooLarge))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription()).contains("items[0].value");
            });
    assertThat(chunkRows(server, KS, "items", "too-large")).isZero();
    assertThat(get(grpc, "chunks", "too-large", "k")).isNull();
  }

  @Test
  void a_client_signalling_compression_gets_values_as_stored_and_may_send_them_compressed() {
    byte[] text = "a compressible value ".repeat(200_000).getBytes(); // 4 MiB, chunked or not
    grpc.putItems(put("chunks", "zstd", token(Instant.now()), "server", text));
    Struct zstd =
        Struct.newBuilder()
            .putFields("zstd", Value.newBuilder().setBoolValue(true).build())
            .build();
    Item raw =
        grpc.getItems(
                GetItemsRequest.newBuilder()
                    .setNamespace("chunks")
                    .setId("zstd")
                    .putSignals("compression", zstd)
                    .putAllSignals(ChunkFixtures.LARGE_MESSAGES)
                    .build())
            .getItems(0);
    assertThat(raw.getMetadata().getCompression()).isEqualTo("zstd");
    assertThat(raw.getValue().size()).isLessThan(text.length / 8);
    assertThat(Zstd.decompress(raw.getValue().toByteArray(), text.length)).isEqualTo(text);
    Item plain = get(grpc, "chunks", "zstd", "server");
    assertThat(plain.getMetadata().getCompression()).isEmpty();
    assertThat(plain.getValue().toByteArray()).isEqualTo(text);

    // sent compressed: stored as sent, read back plain by a client that did not signal
    byte[] big = random(6 * MIB, 9);
    byte[] compressed = Zstd.compress(big, 3);
    grpc.putItems(
        PutItemsRequest.newBuilder()
            .setNamespace("chunks")
            .setId("zstd")
            .setIdempotencyToken(token(Instant.now()))
            .addItems(
                Item.newBuilder()
                    .setKey(ByteString.copyFromUtf8("client"))
                    .setValue(ByteString.copyFrom(compressed))
                    .setMetadata(ItemMetadata.newBuilder().setCompression("zstd")))
            .build());
    Item back = get(grpc, "chunks", "zstd", "client");
    assertThat(back.getMetadata().getValueSize()).isEqualTo(big.length);
    assertThat(Arrays.equals(back.getValue().toByteArray(), big)).isTrue();
    assertThat(metadata("zstd", "client").compression()).isEqualTo(ValueMetadata.Compression.ZSTD);
  }

  @Test
  void a_zip_bomb_is_refused_naming_the_value_and_nothing_is_written() {
    byte[] bomb = Zstd.compress(new byte[MAX_VALUE + 1], 3); // a few KiB
    assertThat(bomb.length).isLessThan(64 * 1024);
    TestServer.Reply refused =
        server.post(
            "PutItems",
            "{\"namespace\": \"chunks\", \"id\": \"bomb\", \"idempotency_token\": {\"generation_time\": \""
                + Instant.now()
                + "\", \"token\": \"b\"}, \"items\": [{\"key\": \""
                + b64("k")
                + "\", \"value\": \""
                + Base64.getEncoder().encodeToString(bomb)
                + "\", \"metadata\": {\"compression\": \"zstd\"}}]}");
    assertThat(refused.status()).isEqualTo(400);
    assertThat(refused.errorField()).isEqualTo("items[0].value");
    assertThat(refused.errorMessage()).contains("decompressed");
    TestServer.Reply notZstd =
        server.post(
            "PutItems",
            "{\"namespace\": \"chunks\", \"id\": \"bomb\", \"idempotency_token\": {\"generation_time\": \""
                + Instant.now()
                + "\", \"token\": \"b\"}, \"items\": [{\"key\": \""
                + b64("k")
                + "\", \"value\": \""
                + b64("plain text")
                + "\", \"metadata\": {\"compression\": \"zstd\"}}]}");
    assertThat(notZstd.status()).isEqualTo(400);
    assertThat(notZstd.errorField()).isEqualTo("items[0].value");
    assertThat(get(grpc, "chunks", "bomb", "k")).isNull();
  }

  private static void delete(String id, Predicate predicate) {
    grpc.deleteItems(
        DeleteItemsRequest.newBuilder()
            .setNamespace("chunks")
            .setId(id)
            .setIdempotencyToken(token(Instant.now()))
            .setPredicate(predicate)
            .build());
  }

  private static ValueMetadata metadata(String id, String key) {
    Row row =
        server
            .cql
            .execute(
                "SELECT value_metadata FROM " + KS + ".items WHERE id = ? AND key = ?",
                id,
                java.nio.ByteBuffer.wrap(key.getBytes()))
            .one();
    return ValueMetadata.decode(row.getByteBuffer(0));
  }

  private static String b64(String s) {
    return Base64.getEncoder().encodeToString(s.getBytes());
  }
}
