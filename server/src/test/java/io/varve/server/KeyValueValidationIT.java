package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.Selection;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.function.Consumer;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Malformed KeyValue requests, over JSON and gRPC: each is refused with 400 / INVALID_ARGUMENT
 * naming its field, its value and what was expected, and nothing is written (the record reads back
 * empty).
 */
class KeyValueValidationIT {

  static final String NS = "kv_valid";
  static final String ID = "untouched";

  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub grpc;

  /** A malformed request: its RPC and JSON body, the field named and a fragment of the message. */
  record Case(String name, String rpc, String body, String field, String message) {}

  @BeforeAll
  static void start() {
    server = new TestServer("varve_kv_validation_it", "kv_validation_it", "kv_validation_it_ts");
    assertThat(
            server
                .post(
                    "CreateNamespace",
                    """
        {"namespace": "kv_valid", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_validation_it", "table": "items"}}]}""")
                .status())
        .isEqualTo(200);
    assertThat(
            server
                .post(
                    "CreateNamespace",
                    """
        {"namespace": "kv_valid_ts", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "physical_storage": {"dataset": "kv_validation_it_ts"}}]}""")
                .status())
        .isEqualTo(200);
    grpc =
        GrpcClients.newClient(
            "http://127.0.0.1:" + server.server.port(), KeyValueGrpc.KeyValueBlockingStub.class);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void malformed_json_requests_name_their_field_value_and_expectation_and_write_nothing() {
    String ok = item("k", "v");
    String big = Base64.getEncoder().encodeToString(new byte[1024 * 1024]);
    List<Case> cases =
        new ArrayList<>(
            List.of(
                new Case(
                    "no items",
                    "PutItems",
                    put(token(), ""),
                    "items",
                    "\"0 items\" (expected: 1..1000)"),
                new Case(
                    "too many items",
                    "PutItems",
                    put(token(), items(1001)),
                    "items",
                    "\"1001 items\" (expected: 1..1000)"),
                new Case(
                    "key over 4 KiB",
                    "PutItems",
                    put(token(), item("k".repeat(4097), "v")),
                    "items[0].key",
                    "\"4097 bytes\" (expected: at most 4096 bytes)"),
                new Case(
                    "unknown compression",
                    "PutItems",
                    put(
                        token(),
                        "{\"key\": \"azE=\", \"value\": \"eA==\", \"metadata\": {\"compression\":"
                            + " \"gzip\"}}"),
                    "items[0].metadata.compression",
                    "\"gzip\" (expected: \"\" or \"zstd\")"),
                new Case(
                    "request over 4 MiB",
                    "PutItems",
                    put(token(), bigItems(big, 5)),
                    "items",
                    "\"5242890 bytes of keys and values\" (expected: at most 4194304 bytes)"),
                new Case(
                    "duplicate keys",
                    "PutItems",
                    put(token(), ok + ", " + item("k", "w")),
                    "items[1].key",
                    "a key given twice"),
                new Case(
                    "metadata given",
                    "PutItems",
                    put(token(), "{\"key\": \"aw==\", \"metadata\": {\"value_size\": 1}}"),
                    "items[0].metadata",
                    "the server writes it"),
                new Case(
                    "empty id",
                    "PutItems",
                    body("", "\"idempotency_token\": " + token() + ", \"items\": [" + ok + "]"),
                    "id",
                    "1..1024 UTF-8 bytes"),
                new Case(
                    "id over 1024 bytes",
                    "PutItems",
                    body(
                        "i".repeat(1025),
                        "\"idempotency_token\": " + token() + ", \"items\": [" + ok + "]"),
                    "id",
                    "1..1024 UTF-8 bytes"),
                new Case(
                    "token missing",
                    "PutItems",
                    body(ID, "\"items\": [" + ok + "]"),
                    "idempotency_token",
                    "missing"),
                new Case(
                    "token nonce empty",
                    "PutItems",
                    put(token(Instant.now(), ""), ok),
                    "idempotency_token.token",
                    "1..128 characters"),
                new Case(
                    "token nonce too long",
                    "PutItems",
                    put(token(Instant.now(), "t".repeat(129)), ok),
                    "idempotency_token.token",
                    "1..128 characters"),
                new Case(
                    "token without time",
                    "PutItems",
                    put("{\"token\": \"t\"}", ok),
                    "idempotency_token.generation_time",
                    "a time after 1970"),
                new Case(
                    "token in the future",
                    "PutItems",
                    put(token(Instant.now().plusSeconds(60), "t"), ok),
                    "idempotency_token.generation_time",
                    "maxTokenLead"),
                new Case(
                    "token in the past",
                    "PutItems",
                    put(token(Instant.now().minusSeconds(3600), "t"), ok),
                    "idempotency_token.generation_time",
                    "maxTokenAge"),
                new Case(
                    "delete without predicate",
                    "DeleteItems",
                    body(ID, "\"idempotency_token\": " + token()),
                    "predicate",
                    "missing"),
                new Case(
                    "delete with too many keys",
                    "DeleteItems",
                    body(
                        ID,
                        "\"idempotency_token\": "
                            + token()
                            + ", \"predicate\": {\"match_keys\": {\"keys\": ["
                            + keys(1001)
                            + "]}}"),
                    "predicate.match_keys.keys",
                    "\"1001 keys\" (expected: 1..1000)"),
                new Case(
                    "delete with no keys",
                    "DeleteItems",
                    body(
                        ID,
                        "\"idempotency_token\": "
                            + token()
                            + ", \"predicate\": {\"match_keys\": {}}"),
                    "predicate.match_keys.keys",
                    "\"0 keys\" (expected: 1..1000)"),
                new Case(
                    "delete of a reversed range",
                    "DeleteItems",
                    body(
                        ID,
                        "\"idempotency_token\": "
                            + token()
                            + ", \"predicate\": {\"match_range\": {\"start\": \"Yg==\", \"end\": \"YQ==\"}}"),
                    "predicate.match_range.end",
                    "start <= end"),
                new Case(
                    "delete in the future",
                    "DeleteItems",
                    body(
                        ID,
                        "\"idempotency_token\": "
                            + token(Instant.now().plusSeconds(60), "t")
                            + ", \"predicate\": {\"match_all\": {}}"),
                    "idempotency_token.generation_time",
                    "maxTokenLead"),
                new Case(
                    "range bound over 4 KiB",
                    "GetItems",
                    body(
                        ID,
                        "\"predicate\": {\"match_range\": {\"start\": \""
                            + Base64.getEncoder().encodeToString(new byte[4097])
                            + "\"}}"),
                    "predicate.match_range.start",
                    "\"4097 bytes\" (expected: at most 4096 bytes)"),
                new Case(
                    "negative page size",
                    "GetItems",
                    body(ID, "\"selection\": {\"page_size_bytes\": -1}"),
                    "selection.page_size_bytes",
                    "-1 (expected: 1..16777216)"),
                new Case(
                    "page size over the maximum",
                    "GetItems",
                    body(ID, "\"selection\": {\"page_size_bytes\": 16777217}"),
                    "selection.page_size_bytes",
                    "16777217 (expected: 1..16777216)"),
                new Case(
                    "negative item limit",
                    "GetItems",
                    body(ID, "\"selection\": {\"item_limit\": -5}"),
                    "selection.item_limit",
                    "-5 (expected: 0 (none) or more)"),
                new Case(
                    "garbled page token",
                    "GetItems",
                    body(ID, "\"page_token\": \"bm90IGEgdG9rZW4\""),
                    "page_token",
                    "a nextPageToken returned for this same request"),
                new Case(
                    "time series namespace",
                    "PutItems",
                    put("kv_valid_ts", token(), ok),
                    "namespace",
                    "TIME_SERIES"),
                new Case(
                    "malformed namespace",
                    "PutItems",
                    put("Not A Name", token(), ok),
                    "namespace",
                    "Not A Name")));
    SoftAssertions soft = new SoftAssertions();
    for (Case c : cases) {
      TestServer.Reply reply = server.post(c.rpc(), c.body());
      soft.assertThat(reply.status()).as(c.name() + ": " + reply.body()).isEqualTo(400);
      soft.assertThat(reply.errorField()).as(c.name() + ": " + reply.body()).isEqualTo(c.field());
      soft.assertThat(reply.errorMessage()).as(c.name()).contains(c.field()).contains(c.message());
    }
    soft.assertAll();
    assertThat(cases).hasSizeGreaterThanOrEqualTo(20);
    assertNothingWritten();
  }

  @Test
  void a_token_is_counted_in_characters_and_echoed_without_cutting_one() {
    String emoji = "\uD83D\uDE00";
    TestServer.Reply taken =
        server.post(
            "PutItems",
            put(token(Instant.now(), emoji.repeat(128)), item("k", "v"))
                .replace("\"id\": \"" + ID + "\"", "\"id\": \"emoji\""));
    assertThat(taken.status()).as("128 emoji: " + taken.body()).isEqualTo(200);

    TestServer.Reply refused =
        server.post("PutItems", put(token(Instant.now(), emoji.repeat(129)), item("k", "v")));

    assertThat(refused.status()).as(refused.body().toString()).isEqualTo(400);
    assertThat(refused.errorField()).isEqualTo("idempotency_token.token");
    assertThat(refused.errorMessage())
        .isEqualTo(
            "idempotency_token.token: \""
                + emoji.repeat(77)
                + "...\" (expected: 1..128 characters (Unicode code points))");
    assertNothingWritten();
  }

  @Test
  void a_page_token_of_another_namespace_record_or_predicate_is_refused() {
    TestServer.Reply put =
        server.post(
            "PutItems",
            put(token(), item("a", "1") + ", " + item("b", "2") + ", " + item("c", "3"))
                .replace("\"id\": \"" + ID + "\"", "\"id\": \"paged\""));
    assertThat(put.status()).as(put.body().toString()).isEqualTo(200);
    String token =
        server
            .post(
                "GetItems",
                "{\"namespace\": \"kv_valid\", \"id\": \"paged\","
                    + " \"selection\": {\"page_size_bytes\": 2}}")
            .body()
            .path("nextPageToken")
            .asText();
    assertThat(token).isNotEmpty();
    for (String other :
        List.of(
            "{\"namespace\": \"kv_valid\", \"id\": \"other\", \"selection\": {\"page_size_bytes\": 2}",
            "{\"namespace\": \"kv_valid\", \"id\": \"paged\", \"selection\": {\"page_size_bytes\": 2},"
                + " \"predicate\": {\"match_range\": {\"start\": \"YQ==\"}}",
            "{\"namespace\": \"kv_valid\", \"id\": \"paged\", \"selection\": {\"page_size_bytes\": 2, \"item_limit\": 1}",
            "{\"namespace\": \"kv_valid_other\", \"id\": \"paged\", \"selection\": {\"page_size_bytes\": 2}")) {
      TestServer.Reply reply =
          server.post("GetItems", other + ", \"page_token\": \"" + token + "\"}");
      assertThat(reply.status()).as(other).isEqualTo(400);
      assertThat(reply.errorField()).as(other).isEqualTo("page_token");
    }
  }

  @Test
  void malformed_grpc_requests_are_invalid_argument_naming_their_field() {
    Consumer<Runnable> refused =
        call ->
            assertThatThrownBy(call::run)
                .isInstanceOfSatisfying(
                    StatusRuntimeException.class,
                    e ->
                        assertThat(e.getStatus().getCode())
                            .isEqualTo(Status.Code.INVALID_ARGUMENT));
    refused.accept(
        () ->
            grpc.putItems(
                PutItemsRequest.newBuilder()
                    .setNamespace(NS)
                    .setId(ID)
                    .addItems(Item.newBuilder().setKey(ByteString.copyFromUtf8("k")))
                    .build()));
    refused.accept(
        () ->
            grpc.putItems(
                PutItemsRequest.newBuilder()
                    .setNamespace(NS)
                    .setId(ID)
                    .setIdempotencyToken(KeyValueApiIT.token())
                    .addItems(
                        Item.newBuilder()
                            .setKey(ByteString.copyFromUtf8("k"))
                            .setMetadata(ItemMetadata.newBuilder().setValueSize(3)))
                    .build()));
    refused.accept(
        () ->
            grpc.getItems(
                GetItemsRequest.newBuilder()
                    .setNamespace(NS)
                    .setId(ID)
                    .setSelection(Selection.newBuilder().setPageSizeBytes(-1))
                    .build()));
    assertThatThrownBy(
            () ->
                grpc.getItems(
                    GetItemsRequest.newBuilder()
                        .setNamespace(NS)
                        .setId(ID)
                        .setSelection(Selection.newBuilder().setItemLimit(-1))
                        .build()))
        .hasMessageContaining("selection.item_limit");
    assertNothingWritten();
  }

  @Test
  void a_namespace_on_an_existing_table_of_another_clustering_order_or_shape_is_refused() {
    server.cql.execute(
        "CREATE TABLE IF NOT EXISTS kv_validation_it.made_desc (id text, key blob, value blob,"
            + " value_metadata blob, PRIMARY KEY (id, key)) WITH CLUSTERING ORDER BY (key DESC)");
    server.cql.execute(
        "CREATE TABLE IF NOT EXISTS kv_validation_it.other_shape (id text, key blob, payload blob,"
            + " PRIMARY KEY (id, key))");
    TestServer.Reply asc =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_valid_asc", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_validation_it", "table": "made_desc",
            "config": {"clustering_order": "ASC"}}}]}""");
    assertThat(asc.status()).as(asc.body().toString()).isEqualTo(400);
    assertThat(asc.errorField()).isEqualTo("physicalStorage.config.clusteringOrder");
    assertThat(asc.errorMessage()).contains("kv_validation_it.made_desc (DESC)");
    TestServer.Reply shape =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_valid_shape", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_validation_it", "table": "other_shape"}}]}""");
    assertThat(shape.status()).as(shape.body().toString()).isEqualTo(400);
    assertThat(shape.errorField()).isEqualTo("physicalStorage.table");
    assertThat(server.post("GetNamespace", "{\"namespace\": \"kv_valid_asc\"}").status())
        .isEqualTo(404);
    TestServer.Reply desc =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_valid_desc", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_validation_it", "table": "made_desc",
            "config": {"clustering_order": "DESC"}}}]}""");
    assertThat(desc.status()).as(desc.body().toString()).isEqualTo(200);
  }

  @Test
  void page_size_zero_is_the_default_page_size() {
    TestServer.Reply reply =
        server.post("GetItems", body(ID, "\"selection\": {\"page_size_bytes\": 0}"));
    assertThat(reply.status()).isEqualTo(200);
  }

  static void assertNothingWritten() {
    assertThat(server.post("GetItems", body(ID, "\"selection\": {}")).body().path("items"))
        .isEmpty();
    assertThat(
            server
                .cql
                .execute("SELECT count(*) FROM kv_validation_it.items WHERE id = '" + ID + "'")
                .one()
                .getLong(0))
        .isZero();
  }

  static String put(String token, String items) {
    return put(NS, token, items);
  }

  static String put(String ns, String token, String items) {
    return "{\"namespace\": \""
        + ns
        + "\", \"id\": \""
        + ID
        + "\", \"idempotency_token\": "
        + token
        + ", \"items\": ["
        + items
        + "]}";
  }

  static String body(String id, String rest) {
    return "{\"namespace\": \"" + NS + "\", \"id\": \"" + id + "\", " + rest + "}";
  }

  static String token() {
    return token(Instant.now(), "t-" + System.nanoTime());
  }

  static String token(Instant time, String nonce) {
    return "{\"generation_time\": \"" + time + "\", \"token\": \"" + nonce + "\"}";
  }

  static String item(String key, String value) {
    Base64.Encoder b64 = Base64.getEncoder();
    return "{\"key\": \""
        + b64.encodeToString(key.getBytes())
        + "\", \"value\": \""
        + b64.encodeToString(value.getBytes())
        + "\"}";
  }

  static String items(int n) {
    List<String> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(item("k" + i, "v"));
    }
    return String.join(", ", items);
  }

  static String bigItems(String value, int n) {
    List<String> items = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      items.add(
          "{\"key\": \""
              + Base64.getEncoder().encodeToString(("k" + i).getBytes())
              + "\", \"value\": \""
              + value
              + "\"}");
    }
    return String.join(", ", items);
  }

  static String keys(int n) {
    List<String> keys = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      keys.add("\"" + Base64.getEncoder().encodeToString(("k" + i).getBytes()) + "\"");
    }
    return String.join(", ", keys);
  }
}
