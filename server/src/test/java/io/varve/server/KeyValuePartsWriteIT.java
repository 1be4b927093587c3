package io.varve.server;

import static io.varve.server.ChunkFixtures.chunkRows;
import static io.varve.server.ChunkFixtures.get;
import static io.varve.server.ChunkFixtures.random;
import static io.varve.server.ChunkFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.github.luben.zstd.Zstd;
import com.google.protobuf.ByteString;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.ChunkedValue;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutItemsResponse;
import io.varve.api.kv.v1.PutOperation;
import io.varve.core.kv.ChunkSweep;
import io.varve.core.kv.KvLimits;
import io.varve.server.config.ServerSettings;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The write half of the chunked protocol on the real local Cassandra: values staged in parts over
 * several PutItems under one idempotency token, by a client whose messages stay within gRPC's usual
 * 4 MiB, and committed atomically; commits that do not match their parts refused naming the part;
 * replays harmless; abandoned stagings swept.
 */
class KeyValuePartsWriteIT {

  static final String META = "varve_kv_parts_write_it";
  static final String KS = "kv_parts_write_it";
  static final String NS = "parts";
  static final int MIB = KvLimits.MIB;
  static final int GRPC_DEFAULT_MESSAGE = 4 * MIB;

  static TestServer server;

  /** Reads values whole (the read half is tested apart): no response limit. */
  static KeyValueGrpc.KeyValueBlockingStub reader;

  /** Writes as a client of gRPC's usual limits would: no message above 4 MiB. */
  static KeyValueGrpc.KeyValueBlockingStub writer;

  @BeforeAll
  static void start() {
    server = new TestServer(ServerSettings.defaults(), META, KS);
    ChunkFixtures.createNamespace(server, "parts", "kv_parts_write_it");
    reader = ChunkFixtures.grpc(server);
    writer =
        GrpcClients.builder("http://127.0.0.1:" + server.server.port())
            .maxRequestMessageLength(GRPC_DEFAULT_MESSAGE)
            .maxResponseMessageLength(GRPC_DEFAULT_MESSAGE)
            .responseTimeout(Duration.ofMinutes(1))
            .build(KeyValueGrpc.KeyValueBlockingStub.class);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static int crc(byte[] bytes, int from, int to) {
    CRC32C crc = new CRC32C();
    crc.update(bytes, from, to - from);
    return (int) crc.getValue();
  }

  static Item part(String key, int chunk, byte[] value, int partSize) {
    int from = chunk * partSize;
    int to = Math.min(value.length, from + partSize);
    return Item.newBuilder()
        .setKey(ByteString.copyFromUtf8(key))
        .setChunk(chunk)
        .setValue(ByteString.copyFrom(value, from, to - from))
        .build();
  }

  static ChunkedValue.Builder described(byte[] value, int partSize) {
    return ChunkedValue.newBuilder()
        .setChunkCount((value.length + partSize - 1) / partSize)
        .setValueSize(value.length)
        .setCrc32C(crc(value, 0, value.length));
  }

  static Item commit(String key, ChunkedValue.Builder chunked) {
    return Item.newBuilder().setKey(ByteString.copyFromUtf8(key)).setChunked(chunked).build();
  }

  static PutItemsRequest request(String id, IdempotencyToken token, List<Item> items) {
    PutItemsRequest r =
        PutItemsRequest.newBuilder()
            .setNamespace(NS)
            .setId(id)
            .setIdempotencyToken(token)
            .addAllItems(items)
            .build();
    assertThat(r.getSerializedSize()).isLessThanOrEqualTo(GRPC_DEFAULT_MESSAGE);
    return r;
  }

  /** Stages parts {@code from..to-1} of {@code value}, three to a request (under 4 MiB each). */
  static void stage(
      String id, IdempotencyToken token, String key, byte[] value, int partSize, int from, int to) {
    for (int first = from; first < to; first += 3) {
      List<Item> parts = new ArrayList<>();
      for (int c = first; c < Math.min(to, first + 3); c++) {
        parts.add(part(key, c, value, partSize));
      }
      PutItemsResponse r = writer.putItems(request(id, token, parts));
      assertThat(r.getChunkCount()).isEqualTo(parts.size());
      assertThat(r.getItemCount()).isZero();
    }
  }

  /** Stages all of {@code value} in parts of {@code partSize} and commits it. */
  static void putInParts(
      String id, IdempotencyToken token, String key, byte[] value, int partSize) {
    int count = (value.length + partSize - 1) / partSize;
    stage(id, token, key, value, partSize, 0, count);
    PutItemsResponse r =
        writer.putItems(request(id, token, List.of(commit(key, described(value, partSize)))));
    assertThat(r.getItemCount()).isEqualTo(1);
  }

  static byte[] read(String id, String key) {
    Item item = get(reader, NS, id, key);
    return item == null ? null : item.getValue().toByteArray();
  }

  static StatusRuntimeException refused(PutItemsRequest r) {
    StatusRuntimeException[] thrown = new StatusRuntimeException[1];
    assertThatThrownBy(() -> writer.putItems(r))
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> thrown[0] = e);
    return thrown[0];
  }

  @Test
  void a_64_mib_value_staged_in_messages_under_4_mib_reads_back_byte_exact() {
    byte[] value = random(64 * MIB, 1);
    IdempotencyToken token = token(Instant.now());
    putInParts("large", token, "v", value, MIB);
    assertThat(Arrays.equals(read("large", "v"), value)).isTrue();
    Item item = get(reader, NS, "large", "v");
    assertThat(item.getMetadata().getValueSize()).isEqualTo(64L * MIB);
  }

  @Test
  void nothing_of_a_staged_value_is_read_until_its_commit() {
    byte[] old = random(2 * MIB, 2);
    reader.putItems(
        ChunkFixtures.put(NS, "staging", token(Instant.now().minusSeconds(5)), "v", old));
    byte[] value = random(3 * MIB + 5, 3);
    IdempotencyToken token = token(Instant.now());
    stage("staging", token, "v", value, MIB, 0, 4);
    assertThat(Arrays.equals(read("staging", "v"), old)).isTrue();
    stage("staging", token, "w", value, MIB, 0, 4);
    assertThat(read("staging", "w")).isNull();
    writer.putItems(request("staging", token, List.of(commit("v", described(value, MIB)))));
    assertThat(Arrays.equals(read("staging", "v"), value)).isTrue();
  }

  @Test
  void parts_of_any_size_up_to_the_chunk_size_and_a_commit_in_the_same_request_work() {
    byte[] value = random(700 * 1024 + 3, 4);
    int partSize = 100 * 1024;
    IdempotencyToken token = token(Instant.now());
    List<Item> items = new ArrayList<>();
    for (int c = 0; c < 8; c++) {
      items.add(part("v", c, value, partSize));
    }
    items.add(commit("v", described(value, partSize)));
    items.add(
        Item.newBuilder()
            .setKey(ByteString.copyFromUtf8("small"))
            .setValue(ByteString.copyFromUtf8("beside"))
            .build());
    PutItemsResponse r = writer.putItems(request("same", token, items));
    assertThat(r.getItemCount()).isEqualTo(2);
    assertThat(r.getChunkCount()).isEqualTo(8);
    assertThat(Arrays.equals(read("same", "v"), value)).isTrue();
    assertThat(read("same", "small")).isEqualTo("beside".getBytes());
  }

  @Test
  void a_commit_with_a_missing_part_is_refused_naming_it_and_nothing_is_committed() {
    byte[] value = random(4 * MIB, 5);
    IdempotencyToken token = token(Instant.now());
    stage("missing", token, "v", value, MIB, 0, 2);
    stage("missing", token, "v", value, MIB, 3, 4);
    StatusRuntimeException e =
        refused(request("missing", token, List.of(commit("v", described(value, MIB)))));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(e.getStatus().getDescription())
        .contains("items[0].chunked")
        .contains("part 2 is missing");
    assertThat(read("missing", "v")).isNull();
    // the client sends the missing part and commits again, under the same token
    stage("missing", token, "v", value, MIB, 2, 3);
    writer.putItems(request("missing", token, List.of(commit("v", described(value, MIB)))));
    assertThat(Arrays.equals(read("missing", "v"), value)).isTrue();
  }

  @Test
  void a_part_outside_the_commits_count_is_refused_naming_it() {
    byte[] value = random(3 * MIB, 6);
    IdempotencyToken token = token(Instant.now());
    stage("outside", token, "v", value, MIB, 0, 3);
    writer.putItems(
        request(
            "outside",
            token,
            List.of(part("v", 0, random(MIB, 60), MIB).toBuilder().setChunk(3).build())));
    StatusRuntimeException e =
        refused(request("outside", token, List.of(commit("v", described(value, MIB)))));
    assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(e.getStatus().getDescription())
        .contains("part 3 is staged under this token but outside chunk_count 3");
    assertThat(read("outside", "v")).isNull();

    // and a part index beyond any value is refused at once, naming the field
    StatusRuntimeException far =
        refused(
            request(
                "outside",
                token(Instant.now()),
                List.of(part("v", 0, value, MIB).toBuilder().setChunk(1024).build())));
    assertThat(far.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(far.getStatus().getDescription()).contains("items[0].chunk").contains("0..1023");
  }

  @Test
  void a_checksum_mismatch_is_refused_and_per_part_checksums_name_the_corrupt_part() {
    byte[] value = random(3 * MIB, 7);
    IdempotencyToken token = token(Instant.now());
    byte[] corrupt = value.clone();
    corrupt[MIB + 10] ^= 1; // part 1 damaged on the way
    stage("corrupt", token, "v", corrupt, MIB, 0, 3);
    StatusRuntimeException whole =
        refused(request("corrupt", token, List.of(commit("v", described(value, MIB)))));
    assertThat(whole.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
    assertThat(whole.getStatus().getDescription()).contains("the staged parts have CRC32C");

    ChunkedValue.Builder withParts = described(value, MIB);
    for (int c = 0; c < 3; c++) {
      withParts.addChunkCrc32C(crc(value, c * MIB, Math.min(value.length, (c + 1) * MIB)));
    }
    StatusRuntimeException named =
        refused(request("corrupt", token, List.of(commit("v", withParts))));
    assertThat(named.getStatus().getDescription())
        .contains("part 1 is corrupt")
        .doesNotContain("part 0 is corrupt");
    assertThat(read("corrupt", "v")).isNull();

    // the part staged again (a replay of the same index before the commit replaces it)
    stage("corrupt", token, "v", value, MIB, 1, 2);
    writer.putItems(request("corrupt", token, List.of(commit("v", withParts))));
    assertThat(Arrays.equals(read("corrupt", "v"), value)).isTrue();
  }

  @Test
  void parts_of_sizes_that_do_not_add_up_are_refused() {
    byte[] value = random(3 * MIB, 8);
    IdempotencyToken token = token(Instant.now());
    writer.putItems(
        request(
            "sizes",
            token,
            List.of(
                part("v", 0, value, MIB), part("v", 1, value, MIB / 2), part("v", 2, value, MIB))));
    StatusRuntimeException e =
        refused(request("sizes", token, List.of(commit("v", described(value, MIB)))));
    assertThat(e.getStatus().getDescription())
        .contains("part 1 holds 524288 bytes, part 0 1048576");
  }

  @Test
  void a_part_replayed_after_the_commit_changes_nothing() {
    byte[] value = random(2 * MIB + 1, 9);
    IdempotencyToken token = token(Instant.now());
    putInParts("replay", token, "v", value, MIB);
    // a late hedge, even one carrying other bytes, is acknowledged and leaves the value alone
    PutItemsResponse late =
        writer.putItems(
            request(
                "replay",
                token,
                List.of(part("v", 0, random(MIB, 90), MIB).toBuilder().setChunk(1).build())));
    assertThat(late.getChunkCount()).isEqualTo(1);
    assertThat(Arrays.equals(read("replay", "v"), value)).isTrue();
    // and a replayed commit writes the same row again
    writer.putItems(request("replay", token, List.of(commit("v", described(value, MIB)))));
    assertThat(Arrays.equals(read("replay", "v"), value)).isTrue();
  }

  @Test
  void an_abandoned_staging_is_swept_and_a_committed_one_is_kept() {
    byte[] value = random(3 * MIB, 10);
    stage("abandoned", token(Instant.now()), "v", value, MIB, 0, 3);
    putInParts("abandoned", token(Instant.now()), "w", value, MIB);
    assertThat(chunkRows(server, KS, "items", "abandoned")).isEqualTo(6);
    ChunkFixtures.sweep(server, META, Duration.ofHours(1));
    assertThat(chunkRows(server, KS, "items", "abandoned")).isEqualTo(3);
    assertThat(read("abandoned", "v")).isNull();
    assertThat(Arrays.equals(read("abandoned", "w"), value)).isTrue();
  }

  @Test
  void a_thousand_keys_staged_in_one_request_and_committed_in_the_next_all_read_back() {
    int keys = 1000; // PutItems' item limit
    IdempotencyToken token = token(Instant.now());
    List<Item> parts = new ArrayList<>();
    List<Item> commits = new ArrayList<>();
    List<byte[]> values = new ArrayList<>();
    for (int k = 0; k < keys; k++) {
      byte[] value = random(1024, 1000 + k);
      values.add(value);
      parts.add(part("k" + k, 0, value, value.length));
      commits.add(commit("k" + k, described(value, value.length)));
    }
    long started = System.nanoTime();
    assertThat(writer.putItems(request("thousand", token, parts)).getChunkCount()).isEqualTo(keys);
    assertThat(writer.putItems(request("thousand", token, commits)).getItemCount()).isEqualTo(keys);
    System.out.printf(
        "1000 parts staged and committed in %d ms%n", (System.nanoTime() - started) / 1_000_000);
    for (int k = 0; k < keys; k += 111) {
      assertThat(read("thousand", "k" + k)).as("k" + k).isEqualTo(values.get(k));
    }
    assertThat(chunkRows(server, KS, "items", "thousand")).isEqualTo(keys);
  }

  @Test
  void a_namespace_deleted_while_a_value_is_staged_refuses_its_commit_and_the_sweeper_goes_on() {
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \"doomed\", \"service\": \"KEY_VALUE\", \"persistence_configuration\":"
                + " [{\"id\": \"PRIMARY_STORAGE\", \"physical_storage\": {\"dataset\": \""
                + KS
                + "\", \"table\": \"doomed_items\"}}]}");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    byte[] value = random(2 * MIB, 20);
    IdempotencyToken token = token(Instant.now());
    PutItemsRequest staged =
        request("r", token, List.of(part("v", 0, value, MIB))).toBuilder()
            .setNamespace("doomed")
            .build();
    assertThat(writer.putItems(staged).getChunkCount()).isEqualTo(1);

    TestServer.Reply deleted =
        server.post(
            "DeleteNamespace", "{\"namespace\": \"doomed\", \"confirm_namespace\": \"doomed\"}");
    assertThat(deleted.status()).as(deleted.body().toString()).isEqualTo(200);

    PutItemsRequest rest =
        request("r", token, List.of(part("v", 1, value, MIB), commit("v", described(value, MIB))))
            .toBuilder()
            .setNamespace("doomed")
            .build();
    assertThat(refused(rest).getStatus().getCode()).isEqualTo(Status.Code.NOT_FOUND);

    ChunkSweep.Result swept = ChunkFixtures.sweep(server, META, Duration.ofHours(1));
    assertThat(swept.failures()).as("the deleted namespace's staging, its table gone").isZero();
    assertThat(swept.examined()).isPositive();
    assertThat(ChunkFixtures.sweep(server, META, Duration.ofHours(1)).examined())
        .as("its log entry removed by the first pass")
        .isLessThan(swept.examined());
  }

  @Test
  void a_value_the_client_compressed_is_staged_compressed_and_read_as_written() {
    // 4 MiB of letters from an alphabet of 8: compresses to about 40 %, over many parts
    byte[] text = random(4 * MIB, 15);
    for (int i = 0; i < text.length; i++) {
      text[i] = (byte) ('a' + (text[i] & 7));
    }
    byte[] frame = Zstd.compress(text, 3);
    IdempotencyToken token = token(Instant.now());
    int partSize = 64 * 1024;
    int count = (frame.length + partSize - 1) / partSize;
    stage("zstd", token, "v", frame, partSize, 0, count);
    Item commit =
        Item.newBuilder()
            .setKey(ByteString.copyFromUtf8("v"))
            .setChunked(described(frame, partSize))
            .setMetadata(ItemMetadata.newBuilder().setCompression("zstd"))
            .build();
    writer.putItems(request("zstd", token, List.of(commit)));
    Item read = get(reader, NS, "zstd", "v");
    assertThat(read.getMetadata().getValueSize()).isEqualTo(text.length);
    assertThat(Arrays.equals(read.getValue().toByteArray(), text)).isTrue();

    // bytes that are no zstd frame are refused at the commit
    IdempotencyToken other = token(Instant.now());
    byte[] plain = random(2 * partSize, 11);
    stage("zstd", other, "w", plain, partSize, 0, 2);
    StatusRuntimeException e =
        refused(
            request(
                "zstd",
                other,
                List.of(
                    commit.toBuilder()
                        .setKey(ByteString.copyFromUtf8("w"))
                        .setChunked(described(plain, partSize))
                        .build())));
    assertThat(e.getStatus().getDescription()).contains("does not start a zstd frame");
  }

  @Test
  void malformed_parts_and_commits_are_refused_naming_the_field() {
    IdempotencyToken token = token(Instant.now());
    byte[] value = random(2 * MIB, 12);
    record Case(Item item, String field) {}
    List<Case> cases =
        List.of(
            new Case(part("v", 0, random(MIB + 1, 1), MIB + 1), "items[0].value"),
            new Case(
                part("v", 0, value, MIB).toBuilder()
                    .setMetadata(ItemMetadata.newBuilder().setCompression("zstd"))
                    .build(),
                "items[0].metadata"),
            new Case(
                part("v", 0, value, MIB).toBuilder().setChunked(described(value, MIB)).build(),
                "items[0].chunked"),
            new Case(part("v", 0, value, MIB).toBuilder().setChunk(-1).build(), "items[0].chunk"),
            new Case(
                commit("v", described(value, MIB)).toBuilder()
                    .setValue(ByteString.copyFromUtf8("x"))
                    .build(),
                "items[0].value"),
            new Case(commit("v", described(value, MIB).setChunkCount(0)), "chunk_count"),
            new Case(commit("v", described(value, MIB).setValueSize(5L * MIB)), "value_size"),
            new Case(commit("v", described(value, MIB).addChunkCrc32C(1)), "chunk_crc32c"));
    for (Case c : cases) {
      StatusRuntimeException e = refused(request("malformed", token, List.of(c.item())));
      assertThat(e.getStatus().getCode()).as(c.field()).isEqualTo(Status.Code.INVALID_ARGUMENT);
      assertThat(e.getStatus().getDescription()).as(c.field()).contains(c.field());
    }
    Item whole =
        Item.newBuilder()
            .setKey(ByteString.copyFromUtf8("v"))
            .setValue(ByteString.copyFromUtf8("whole"))
            .build();
    StatusRuntimeException both =
        refused(request("malformed", token, List.of(part("v", 0, value, MIB), whole)));
    assertThat(both.getStatus().getDescription()).contains("items[1].key");
    StatusRuntimeException twice =
        refused(
            request(
                "malformed", token, List.of(part("v", 0, value, MIB), part("v", 0, value, MIB))));
    assertThat(twice.getStatus().getDescription()).contains("items[1].chunk");
    StatusRuntimeException mutate =
        assertRefused(
            () ->
                reader.mutateItems(
                    MutateItemsRequest.newBuilder()
                        .setNamespace(NS)
                        .setIdempotencyToken(token)
                        .addMutations(
                            Mutation.newBuilder()
                                .setId("malformed")
                                .setPut(
                                    PutOperation.newBuilder().addItems(part("v", 0, value, MIB))))
                        .build()));
    assertThat(mutate.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
    assertThat(mutate.getStatus().getDescription()).contains("chunk");
    assertThat(chunkRows(server, KS, "items", "malformed")).isZero();
  }

  static StatusRuntimeException assertRefused(Runnable call) {
    StatusRuntimeException[] thrown = new StatusRuntimeException[1];
    assertThatThrownBy(call::run)
        .isInstanceOfSatisfying(StatusRuntimeException.class, e -> thrown[0] = e);
    return thrown[0];
  }

  @Test
  void concurrent_readers_never_see_a_half_committed_value() throws Exception {
    byte[][] values = {random(5 * MIB + 7, 13), random(5 * MIB + 7, 14)};
    int[] crcs = {crc(values[0], 0, values[0].length), crc(values[1], 0, values[1].length)};
    putInParts("alternate", token(Instant.now()), "v", values[0], MIB);
    AtomicBoolean writing = new AtomicBoolean(true);
    AtomicInteger reads = new AtomicInteger();
    ExecutorService readers = Executors.newFixedThreadPool(2);
    List<Future<?>> done = new ArrayList<>();
    for (int r = 0; r < 2; r++) {
      done.add(
          readers.submit(
              () -> {
                while (writing.get()) {
                  byte[] seen = read("alternate", "v");
                  int c = crc(seen, 0, seen.length);
                  assertThat(c).isIn(crcs[0], crcs[1]);
                  reads.incrementAndGet();
                }
                return null;
              }));
    }
    try {
      for (int round = 1; round <= 8; round++) {
        putInParts("alternate", token(Instant.now()), "v", values[round % 2], MIB);
      }
    } finally {
      writing.set(false);
      readers.shutdown();
    }
    for (Future<?> f : done) {
      f.get(1, TimeUnit.MINUTES);
    }
    assertThat(reads.get()).isPositive();
    assertThat(Arrays.equals(read("alternate", "v"), values[0])).isTrue();
  }
}
