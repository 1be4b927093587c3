package io.varve.server;

import static io.varve.server.ChunkFixtures.put;
import static io.varve.server.ChunkFixtures.random;
import static io.varve.server.ChunkFixtures.token;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.github.luben.zstd.Zstd;
import com.google.protobuf.ByteString;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.api.kv.v1.Selection;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvLimits;
import io.varve.server.config.ServerSettings;
import java.io.ByteArrayOutputStream;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Base64;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.zip.CRC32C;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * GetItems and ScanItems of values larger than a client's inbound message limit, end to end on the
 * real Cassandra: read in parts by a gRPC client with gRPC's usual 4 MiB limit, refused with what
 * to signal when the client takes no parts, whole over HTTP/JSON.
 */
class KeyValuePartsReadIT {

  static final String META = "varve_kv_parts_it";
  static final String KS = "kv_parts_it";
  static final String NS = "parts";
  static final int MIB = KvLimits.MIB;

  /** gRPC's usual inbound message limit, which a stub generated with default options keeps. */
  static final int GRPC_DEFAULT_INBOUND = 4 * MIB;

  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub writer;
  static KeyValueGrpc.KeyValueBlockingStub reader;

  @BeforeAll
  static void start() {
    KvChunking chunking =
        new KvChunking(
            MIB,
            MIB,
            64 * MIB,
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
        {"namespace": "parts", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_parts_it", "table": "items"}}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    writer = ChunkFixtures.grpc(server);
    reader =
        GrpcClients.builder("http://127.0.0.1:" + server.server.port())
            .maxResponseMessageLength(GRPC_DEFAULT_INBOUND)
            .responseTimeout(Duration.ofMinutes(2))
            .build(KeyValueGrpc.KeyValueBlockingStub.class);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void a_64_mib_value_is_read_in_parts_by_a_client_with_a_4_mib_limit_byte_exact() {
    byte[] value = random(64 * MIB, 64);
    writer.putItems(put(NS, "max", token(Instant.now()), "v", value));

    Parts read =
        readInParts(request("max", "v").putSignals("chunking", Struct.getDefaultInstance()));

    assertThat(read.values).hasSize(1);
    assertThat(Arrays.equals(read.values.get(0), value)).isTrue();
    assertThat(read.pages).isEqualTo(64); // parts of 1 MiB, the default
    assertThat(read.largestMessage).isLessThanOrEqualTo(GRPC_DEFAULT_INBOUND);
  }

  @Test
  void the_tokens_of_the_parts_ahead_read_a_value_side_by_side_in_any_order() {
    byte[] value = random(10 * MIB + 3, 10);
    writer.putItems(put(NS, "ahead", token(Instant.now()), "v", value));
    GetItemsRequest.Builder request =
        request("ahead", "v").putSignals("chunking", Struct.getDefaultInstance());
    GetItemsResponse first = reader.getItems(request.build());
    assertThat(first.getItems(0).getChunk()).isZero();
    assertThat(first.getPartPageTokensCount()).isEqualTo(4); // parts 1 to 4
    byte[][] parts = new byte[11][];
    parts[0] = first.getItems(0).getValue().toByteArray();
    // every token handed out, followed backwards: part k's page gives the token of part k + 4
    java.util.Deque<String> tokens = new java.util.ArrayDeque<>(first.getPartPageTokensList());
    String afterValue = null;
    while (!tokens.isEmpty()) {
      GetItemsResponse page = reader.getItems(request.setPageToken(tokens.pollLast()).build());
      int index = page.getItems(0).getChunk();
      assertThat(parts[index]).as("part %d once", index).isNull();
      parts[index] = page.getItems(0).getValue().toByteArray();
      tokens.addAll(page.getPartPageTokensList());
      assertThat(page.getPartPageTokensCount()).isEqualTo(index + 4 < 11 ? 1 : 0);
      if (index == 10) {
        afterValue = page.getNextPageToken();
      }
    }
    java.io.ByteArrayOutputStream whole = new java.io.ByteArrayOutputStream();
    for (byte[] part : parts) {
      whole.writeBytes(part);
    }
    assertThat(Arrays.equals(whole.toByteArray(), value)).isTrue();
    // the last part's token goes on after the value: nothing more in this record's match
    assertThat(afterValue).isNotNull();
    if (!afterValue.isEmpty()) {
      assertThat(reader.getItems(request.setPageToken(afterValue).build()).getItemsCount())
          .isZero();
    }
  }

  @Test
  void a_client_that_takes_no_parts_is_told_to_signal_chunking() {
    byte[] value = random(5 * MIB, 5);
    writer.putItems(put(NS, "refused", token(Instant.now()), "big", value));

    assertThatThrownBy(() -> reader.getItems(request("refused", "big").build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
              assertThat(e.getStatus().getDescription())
                  .contains("\"big\"", Integer.toString(value.length), "4194304")
                  .contains("signals {\"chunking\": {}}", "\"messages\": {\"maxBytes\": N}");
            });
  }

  @Test
  void parts_sizes_follow_the_signals_and_bad_sizes_are_refused_naming_the_signal() {
    byte[] value = random(3 * MIB + 5, 3);
    writer.putItems(put(NS, "sized", token(Instant.now()), "v", value));

    Parts read =
        readInParts(
            request("sized", "v").putSignals("chunking", struct("maxChunkBytes", 512 * 1024)));
    assertThat(Arrays.equals(read.values.get(0), value)).isTrue();
    assertThat(read.pages).isEqualTo(7);

    // a client that takes messages of 8 MiB gets the value whole, without signalling chunking
    GetItemsResponse whole =
        ChunkFixtures.grpc(server)
            .getItems(
                request("sized", "v").putSignals("messages", struct("maxBytes", 8 * MIB)).build());
    assertThat(whole.getItems(0).hasChunk()).isFalse();
    assertThat(whole.getItems(0).getValue().toByteArray()).isEqualTo(value);

    assertThatThrownBy(
            () ->
                reader.getItems(
                    request("sized", "v")
                        .putSignals("chunking", struct("maxChunkBytes", 1000))
                        .build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT);
              assertThat(e.getStatus().getDescription())
                  .contains("signals.chunking.maxChunkBytes", "1000", "65536", "67108864");
            });
    assertThatThrownBy(
            () ->
                reader.getItems(
                    request("sized", "v").putSignals("messages", struct("maxBytes", 1e10)).build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e ->
                assertThat(e.getStatus().getDescription())
                    .contains("signals.messages.maxBytes", "2147483647"));
  }

  @Test
  void a_page_of_many_small_items_stops_within_the_client_limit() {
    int count = 50_000;
    for (int batch = 0; batch < count / 1000; batch++) {
      PutItemsRequest.Builder put =
          PutItemsRequest.newBuilder()
              .setNamespace(NS)
              .setId("small")
              .setIdempotencyToken(token(Instant.now()));
      for (int i = batch * 1000; i < (batch + 1) * 1000; i++) {
        put.addItems(
            Item.newBuilder()
                .setKey(ByteString.copyFromUtf8(String.format("k%06d", i)))
                .setValue(ByteString.copyFrom(random(100, i))));
      }
      writer.putItems(put.build());
    }
    Set<String> seen = new HashSet<>();
    int pages = 0;
    String token = "";
    do {
      GetItemsResponse page =
          reader.getItems(
              GetItemsRequest.newBuilder()
                  .setNamespace(NS)
                  .setId("small")
                  .setSelection(Selection.newBuilder().setPageSizeBytes(16 * MIB))
                  .setPageToken(token)
                  .build());
      assertThat(page.getSerializedSize()).isLessThanOrEqualTo(GRPC_DEFAULT_INBOUND);
      for (Item item : page.getItemsList()) {
        assertThat(seen.add(item.getKey().toStringUtf8())).as("returned once").isTrue();
      }
      pages++;
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    assertThat(seen).hasSize(count);
    assertThat(pages).isGreaterThan(1);

    // a scan of the same items keeps within the limit too (the larger values of the other tests
    // are left out, to be read by GetItems)
    Set<String> scanned = new HashSet<>();
    String scanToken = "";
    do {
      ScanItemsResponse page =
          reader.scanItems(
              ScanItemsRequest.newBuilder()
                  .setNamespace(NS)
                  .setSelection(Selection.newBuilder().setPageSizeBytes(16 * MIB))
                  .putSignals("chunking", Struct.getDefaultInstance())
                  .setPageToken(scanToken)
                  .build());
      assertThat(page.getSerializedSize()).isLessThanOrEqualTo(GRPC_DEFAULT_INBOUND);
      page.getItemsList().stream()
          .filter(s -> s.getId().equals("small"))
          .forEach(s -> scanned.add(s.getItem().getKey().toStringUtf8()));
      scanToken = page.getNextPageToken();
    } while (!scanToken.isEmpty());
    assertThat(scanned).hasSize(count);
  }

  @Test
  void a_value_overwritten_between_parts_is_read_whole_from_its_version_or_refused() {
    byte[] old = random(6 * MIB, 61);
    Instant first = Instant.now().minusSeconds(5);
    writer.putItems(put(NS, "race", token(first), "v", old));
    GetItemsRequest.Builder request =
        request("race", "v").putSignals("chunking", Struct.getDefaultInstance());
    GetItemsResponse part0 = reader.getItems(request.build());
    assertThat(part0.getItems(0).getChunk()).isZero();

    byte[] newer = random(6 * MIB, 62);
    writer.putItems(put(NS, "race", token(Instant.now()), "v", newer));
    // the replaced version's chunks stay for the sweeper's grace: the reader finishes the old one
    Parts rest = continueParts(request, part0);
    assertThat(Arrays.equals(rest.values.get(0), old)).isTrue();

    // once the sweeper removed them, a reader between parts is told to start again
    GetItemsResponse again = reader.getItems(request.setPageToken("").build());
    assertThat(again.getItems(0).getChunk()).isZero();
    writer.putItems(put(NS, "race", token(Instant.now()), "v", old));
    ChunkFixtures.sweep(server, META, Duration.ofHours(2));
    assertThatThrownBy(
            () -> reader.getItems(request.setPageToken(again.getNextPageToken()).build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
              assertThat(e.getStatus().getDescription())
                  .contains("changed while it was read in parts", "without page_token");
            });
    Parts fresh = readInParts(request.setPageToken(""));
    assertThat(Arrays.equals(fresh.values.get(0), old)).isTrue();
  }

  @Test
  void an_inline_value_overwritten_between_parts_is_refused_never_mixed() {
    byte[] text = repeated(8 * MIB, 7);
    byte[] frame = Zstd.compress(text, 3);
    assertThat(frame.length).isLessThan(MIB); // stays in its row, as sent
    writer.putItems(clientCompressed("inline", "v", text, frame, Instant.now().minusSeconds(5)));
    GetItemsRequest.Builder request =
        request("inline", "v").putSignals("chunking", Struct.getDefaultInstance());
    GetItemsResponse part0 = reader.getItems(request.build());
    assertThat(part0.getItems(0).getChunked().getChunkCount()).isEqualTo(8);
    Parts whole = continueParts(request, part0);
    assertThat(Arrays.equals(whole.values.get(0), text)).isTrue();

    GetItemsResponse again = reader.getItems(request.setPageToken("").build());
    byte[] other = repeated(8 * MIB, 8);
    writer.putItems(clientCompressed("inline", "v", other, Zstd.compress(other, 3), Instant.now()));
    assertThatThrownBy(
            () -> reader.getItems(request.setPageToken(again.getNextPageToken()).build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION));
  }

  @Test
  void a_compressed_value_is_read_in_parts_with_and_without_the_zstd_signal() {
    byte[] value = compressible(12 * MIB, 12); // the server stores it compressed, in chunks
    writer.putItems(put(NS, "zstd", token(Instant.now()), "v", value));
    Struct zstd =
        Struct.newBuilder()
            .putFields("zstd", Value.newBuilder().setBoolValue(true).build())
            .build();

    Parts plain =
        readInParts(request("zstd", "v").putSignals("chunking", struct("maxChunkBytes", 2 * MIB)));
    assertThat(Arrays.equals(plain.values.get(0), value)).isTrue();
    assertThat(plain.pages).isEqualTo(6);
    assertThat(plain.compression).isEmpty();

    Parts stored =
        readInParts(
            request("zstd", "v")
                .putSignals("chunking", struct("maxChunkBytes", 64 * 1024))
                .putSignals("compression", zstd));
    assertThat(stored.compression).isEqualTo("zstd");
    assertThat(stored.pages).isGreaterThan(1);
    assertThat(Zstd.decompress(stored.values.get(0), value.length)).isEqualTo(value);
  }

  @Test
  void http_json_returns_a_6_mib_value_whole() throws Exception {
    byte[] value = random(6 * MIB, 6);
    writer.putItems(put(NS, "json", token(Instant.now()), "v", value));
    JsonNode got =
        ChunkFixtures.postLarge(
            server,
            "GetItems",
            "{\"namespace\": \"parts\", \"id\": \"json\", \"predicate\": {\"match_keys\":"
                + " {\"keys\": [\""
                + Base64.getEncoder().encodeToString("v".getBytes())
                + "\"]}}}");
    JsonNode item = got.path("items").get(0);
    assertThat(item.has("chunk")).isFalse();
    assertThat(Arrays.equals(Base64.getDecoder().decode(item.path("value").asText()), value))
        .isTrue();
  }

  @Test
  void a_scan_leaves_out_a_value_too_large_for_the_message_and_says_its_size() {
    byte[] value = random(5 * MIB, 55);
    writer.putItems(put(NS, "scan-large", token(Instant.now()), "v", value));
    boolean found = false;
    String token = "";
    do {
      ScanItemsResponse page =
          reader.scanItems(
              ScanItemsRequest.newBuilder()
                  .setNamespace(NS)
                  .putSignals("chunking", Struct.getDefaultInstance())
                  .setPageToken(token)
                  .build());
      assertThat(page.getSerializedSize()).isLessThanOrEqualTo(GRPC_DEFAULT_INBOUND);
      for (var scanned : page.getItemsList()) {
        if (scanned.getId().equals("scan-large")) {
          found = true;
          assertThat(page.getItemsCount()).isEqualTo(1);
          assertThat(scanned.getItem().getValue().isEmpty()).isTrue();
          assertThat(scanned.getItem().hasChunk()).isFalse();
          assertThat(scanned.getItem().getChunked().getValueSize()).isEqualTo(value.length);
        }
      }
      token = page.getNextPageToken();
    } while (!token.isEmpty());
    assertThat(found).isTrue();

    assertThatThrownBy(
            () -> {
              String t = "";
              do {
                t =
                    reader
                        .scanItems(
                            ScanItemsRequest.newBuilder().setNamespace(NS).setPageToken(t).build())
                        .getNextPageToken();
              } while (!t.isEmpty());
            })
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> {
              assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.FAILED_PRECONDITION);
              assertThat(e.getStatus().getDescription()).contains("chunking");
            });
  }

  /** The values of a read, reassembled from their parts. */
  record Parts(List<byte[]> values, int pages, int largestMessage, String compression) {}

  private static Parts readInParts(GetItemsRequest.Builder request) {
    return continueParts(request, reader.getItems(request.setPageToken("").build()));
  }

  /**
   * Follows the page tokens from {@code first}, as any client of the protocol does: the parts of a
   * value appended in order, its CRC32C checked once whole.
   */
  private static Parts continueParts(GetItemsRequest.Builder request, GetItemsResponse first) {
    List<byte[]> values = new ArrayList<>();
    ByteArrayOutputStream value = null;
    int expected = 0;
    int pages = 0;
    int largest = 0;
    String compression = "";
    GetItemsResponse page = first;
    while (true) {
      pages++;
      largest = Math.max(largest, page.getSerializedSize());
      assertThat(page.getSerializedSize()).isLessThanOrEqualTo(GRPC_DEFAULT_INBOUND);
      for (Item item : page.getItemsList()) {
        compression = item.getMetadata().getCompression();
        if (!item.hasChunk()) {
          values.add(item.getValue().toByteArray());
          continue;
        }
        assertThat(item.getChunk()).isEqualTo(expected);
        if (value == null) {
          value = new ByteArrayOutputStream();
        }
        value.writeBytes(item.getValue().toByteArray());
        expected++;
        if (expected == item.getChunked().getChunkCount()) {
          byte[] whole = value.toByteArray();
          assertThat(whole.length).isEqualTo(item.getChunked().getValueSize());
          CRC32C crc = new CRC32C();
          crc.update(whole);
          assertThat((int) crc.getValue()).isEqualTo(item.getChunked().getCrc32C());
          values.add(whole);
          value = null;
          expected = 0;
        }
      }
      if (page.getNextPageToken().isEmpty()) {
        break;
      }
      page = reader.getItems(request.setPageToken(page.getNextPageToken()).build());
    }
    assertThat(value).as("no value left in parts").isNull();
    // a page after the value's last part may be empty: it is not counted as a part
    int parts = page.getItemsCount() == 0 ? pages - 1 : pages;
    return new Parts(values, parts, largest, compression);
  }

  private static GetItemsRequest.Builder request(String id, String key) {
    return GetItemsRequest.newBuilder()
        .setNamespace(NS)
        .setId(id)
        .setPredicate(
            Predicate.newBuilder()
                .setMatchKeys(MatchKeys.newBuilder().addKeys(ByteString.copyFromUtf8(key))));
  }

  private static Struct struct(String field, double n) {
    return Struct.newBuilder()
        .putFields(field, Value.newBuilder().setNumberValue(n).build())
        .build();
  }

  /** Bytes of 16 letters at random: they compress to about half, never to nothing. */
  private static byte[] compressible(int size, long seed) {
    byte[] bytes = new byte[size];
    Random random = new Random(seed);
    for (int i = 0; i < size; i++) {
      bytes[i] = (byte) ('a' + random.nextInt(16));
    }
    return bytes;
  }

  /** A random block of 4 KiB over and over: compresses to a few KiB. */
  private static byte[] repeated(int size, long seed) {
    byte[] block = random(4096, seed);
    byte[] bytes = new byte[size];
    for (int i = 0; i < size; i += block.length) {
      System.arraycopy(block, 0, bytes, i, Math.min(block.length, size - i));
    }
    return bytes;
  }

  private static PutItemsRequest clientCompressed(
      String id, String key, byte[] value, byte[] frame, Instant at) {
    return PutItemsRequest.newBuilder()
        .setNamespace(NS)
        .setId(id)
        .setIdempotencyToken(token(at))
        .addItems(
            Item.newBuilder()
                .setKey(ByteString.copyFromUtf8(key))
                .setValue(ByteString.copyFrom(frame))
                .setMetadata(ItemMetadata.newBuilder().setCompression("zstd")))
        .build();
  }
}
