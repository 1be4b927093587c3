package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.cql.Row;
import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.PutItemsRequest;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Random;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The KeyValue service end to end, over HTTP/JSON and gRPC, on the real local Cassandra. */
class KeyValueApiIT {

  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub grpc;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_kv_api_it", "kv_api_it", "kv_api_it_ts");
    // the reference text's namespace JSON, as written (with the cache TTL quoted)
    TestServer.Reply asc =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_asc", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"type": "CASSANDRA", "cluster": "cassandra_kv_ngsegment",
            "dataset": "kv_api_it", "table": "ngsegment", "regions": ["us-east-1"],
            "config": {"consistency_scope": "LOCAL", "consistency_target": "READ_YOUR_WRITES"}}},
          {"id": "CACHE", "physical_storage": {"type": "CACHE", "cluster": "evcache_kv_ngsegment"},
            "config": {"default_cache_ttl": "180s"}}]}""");
    assertThat(asc.status()).as(asc.body().toString()).isEqualTo(200);
    TestServer.Reply desc =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_desc", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_api_it", "table": "records_desc",
            "config": {"clustering_order": "DESC"}}}]}""");
    assertThat(desc.status()).as(desc.body().toString()).isEqualTo(200);
    TestServer.Reply ts =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_ts", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "physical_storage": {"dataset": "kv_api_it_ts"}}]}""");
    assertThat(ts.status()).as(ts.body().toString()).isEqualTo(200);
    grpc =
        GrpcClients.newClient(
            "http://127.0.0.1:" + server.server.port(), KeyValueGrpc.KeyValueBlockingStub.class);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void the_reference_namespace_is_stored_as_key_value_with_its_table_and_consistency() {
    JsonNode ns = server.post("GetNamespace", "{\"namespace\": \"kv_asc\"}").body();
    assertThat(ns.path("service").asText()).isEqualTo("KEY_VALUE");
    JsonNode primary = ns.path("persistenceConfiguration").get(0).path("physicalStorage");
    assertThat(primary.path("table").asText()).isEqualTo("ngsegment");
    assertThat(primary.path("config").path("consistencyTarget").asText())
        .isEqualTo("READ_YOUR_WRITES");
    assertThat(primary.path("config").path("clusteringOrder").asText()).isEqualTo("ASC");
    assertThat(
            ns.path("persistenceConfiguration")
                .get(1)
                .path("config")
                .path("defaultCacheTtl")
                .asText())
        .isEqualTo("180s");
    Row desc =
        server
            .cql
            .execute(
                "SELECT clustering_order FROM system_schema.columns WHERE keyspace_name ="
                    + " 'kv_api_it' AND table_name = 'records_desc' AND column_name = 'key'")
            .one();
    assertThat(desc.getString(0)).isEqualTo("desc");
    assertThat(
            server
                .post("GetNamespace", "{\"namespace\": \"kv_ts\"}")
                .body()
                .path("service")
                .asText())
        .isEqualTo("TIME_SERIES");
  }

  @Test
  void maps_sets_and_records_round_trip_in_asc_and_desc_order() {
    put("kv_asc", "map", 0, item("", "the one value"));
    assertThat(values("kv_asc", "map", "{}")).containsExactly("=the one value");
    put("kv_asc", "set", 0, item("b", ""), item("a", ""), item("c", ""));
    assertThat(values("kv_asc", "set", "{}")).containsExactly("a=", "b=", "c=");
    put(
        "kv_desc",
        "record",
        0,
        item("name", "ada"),
        item("born", "1815"),
        item("title", "countess"));
    assertThat(values("kv_desc", "record", "{}"))
        .containsExactly("title=countess", "name=ada", "born=1815");
  }

  @Test
  void the_later_generation_time_wins_whatever_the_arrival_order_and_a_replay_has_no_effect() {
    Instant now = Instant.now();
    assertThat(put("kv_asc", "lww", now, "t2", item("k", "second")).status()).isEqualTo(200);
    assertThat(put("kv_asc", "lww", now.minusMillis(5), "t1", item("k", "first")).status())
        .isEqualTo(200);
    assertThat(values("kv_asc", "lww", "{}")).containsExactly("k=second");
    // a replay of t1 after a newer write, and of t2 itself: still t2's value, written once at t2's
    // time
    put("kv_asc", "lww", now.minusMillis(5), "t1", item("k", "first"));
    put("kv_asc", "lww", now, "t2", item("k", "second"));
    assertThat(values("kv_asc", "lww", "{}")).containsExactly("k=second");
    Row row =
        server
            .cql
            .execute("SELECT WRITETIME(value) FROM kv_api_it.ngsegment WHERE id = 'lww'")
            .one();
    assertThat(row.getLong(0)).isEqualTo(now.getEpochSecond() * 1_000_000L + now.getNano() / 1000);
  }

  @Test
  void two_puts_at_the_same_generation_time_leave_one_of_them_whole_in_both_arrival_orders() {
    // Cassandra settles a tie of write timestamps cell by cell, keeping the larger bytes. Here the
    // token "b" sorts above "a" while a's plain value (0xFF...) sorts above b's zstd frame
    // (0x28...):
    // unless both cells sort the same way, the row would hold b's metadata beside a's value.
    Instant now = Instant.now();
    String compressible = "x".repeat(100_000);
    Item plain =
        Item.newBuilder()
            .setKey(ByteString.copyFromUtf8("k"))
            .setValue(ByteString.copyFrom(new byte[] {(byte) 0xFF, (byte) 0xFE, 1}))
            .build();
    for (String id : List.of("tie_ab", "tie_ba")) {
      boolean aFirst = id.equals("tie_ab");
      assertThat(
              put("kv_asc", id, now, aFirst ? "a" : "b", aFirst ? plain : item("k", compressible))
                  .status())
          .isEqualTo(200);
      assertThat(
              put("kv_asc", id, now, aFirst ? "b" : "a", aFirst ? item("k", compressible) : plain)
                  .status())
          .isEqualTo(200);
      // one whole value, the same one whatever the order: b's, whose token sorts higher
      assertThat(abridged(values("kv_asc", id, "{}")))
          .as(id)
          .containsExactly(abridged(List.of("k=" + compressible)).get(0));
      assertThat(
              abridged(
                  values("kv_asc", id, "{\"match_keys\": {\"keys\": [\"" + b64("k") + "\"]}}")))
          .as(id)
          .containsExactly(abridged(List.of("k=" + compressible)).get(0));
    }
  }

  @Test
  void a_row_written_outside_varve_fails_its_read_naming_its_key_and_no_other_record() {
    put("kv_asc", "beside", 0, item("k", "v"));
    server.cql.execute(
        "INSERT INTO kv_api_it.ngsegment (id, key, value, value_metadata)"
            + " VALUES ('foreign', 0x6b6579, 0x01, 0x01)");
    TestServer.Reply reply =
        server.post(
            "GetItems", "{\"namespace\": \"kv_asc\", \"id\": \"foreign\", \"predicate\": {}}");
    assertThat(reply.status()).isEqualTo(500);
    assertThat(reply.errorMessage())
        .contains("key 0x6b6579 cannot be read")
        .contains("unknown version");
    assertThat(values("kv_asc", "beside", "{}")).containsExactly("k=v");
  }

  @Test
  void tokens_drifting_beyond_the_bounds_are_refused_both_ways_and_nothing_is_written() {
    TestServer.Reply old =
        put("kv_asc", "drift", Instant.now().minus(Duration.ofMinutes(11)), "x", item("k", "v"));
    assertThat(old.status()).isEqualTo(400);
    assertThat(old.errorField()).isEqualTo("idempotency_token.generation_time");
    assertThat(old.errorMessage()).contains("maxTokenAge");
    TestServer.Reply ahead =
        put("kv_asc", "drift", Instant.now().plusSeconds(30), "x", item("k", "v"));
    assertThat(ahead.status()).isEqualTo(400);
    assertThat(ahead.errorMessage()).contains("maxTokenLead");
    assertThat(values("kv_asc", "drift", "{}")).isEmpty();
  }

  @Test
  void every_predicate_in_both_orders() {
    for (String ns : List.of("kv_asc", "kv_desc")) {
      put(ns, "p", 0, item("a", "1"), item("b", "2"), item("c", "3"), item("d", "4"));
      List<String> all = values(ns, "p", "{\"match_all\": {}}");
      assertThat(all).hasSize(4);
      boolean asc = ns.equals("kv_asc");
      assertThat(
              values(
                  ns,
                  "p",
                  "{\"match_keys\": {\"keys\": [\""
                      + b64("d")
                      + "\", \""
                      + b64("b")
                      + "\", \""
                      + b64("zz")
                      + "\"]}}"))
          .containsExactly(asc ? new String[] {"b=2", "d=4"} : new String[] {"d=4", "b=2"});
      assertThat(values(ns, "p", range("b", "d", null, null)))
          .containsExactly(asc ? new String[] {"b=2", "c=3"} : new String[] {"c=3", "b=2"});
      assertThat(values(ns, "p", range("b", "d", false, true)))
          .containsExactly(asc ? new String[] {"c=3", "d=4"} : new String[] {"d=4", "c=3"});
      assertThat(values(ns, "p", range(null, "b", null, true)))
          .containsExactly(asc ? new String[] {"a=1", "b=2"} : new String[] {"b=2", "a=1"});
      assertThat(values(ns, "p", range("c", null, null, null)))
          .containsExactly(asc ? new String[] {"c=3", "d=4"} : new String[] {"d=4", "c=3"});
    }
  }

  @Test
  void pages_of_mixed_sizes_stay_within_page_size_and_return_every_item_once_in_both_orders() {
    Random random = new Random(7);
    for (String ns : List.of("kv_asc", "kv_desc")) {
      List<Item> items = new ArrayList<>();
      for (int i = 0; i < 40; i++) {
        int size = i % 10 == 0 ? 1024 * 1024 : random.nextInt(i % 3 == 0 ? 200_000 : 200) + 1;
        byte[] value = new byte[size];
        random.nextBytes(value);
        items.add(
            Item.newBuilder()
                .setKey(ByteString.copyFromUtf8(String.format("k%03d", i)))
                .setValue(ByteString.copyFrom(value))
                .build());
      }
      for (int i = 0; i < items.size(); i += 4) {
        grpc.putItems(
            PutItemsRequest.newBuilder()
                .setNamespace(ns)
                .setId("pages")
                .setIdempotencyToken(token())
                .addAllItems(items.subList(i, i + 4))
                .build());
      }
      int pageSize = 300_000;
      List<String> seen = new ArrayList<>();
      String pageToken = "";
      int pages = 0;
      do {
        var page =
            grpc.getItems(
                GetItemsRequest.newBuilder()
                    .setNamespace(ns)
                    .setId("pages")
                    .setPageToken(pageToken)
                    .setSelection(
                        io.varve.api.kv.v1.Selection.newBuilder().setPageSizeBytes(pageSize))
                    .build());
        long bytes =
            page.getItemsList().stream()
                .mapToLong(i -> i.getKey().size() + i.getValue().size())
                .sum();
        assertThat(bytes <= pageSize || page.getItemsCount() == 1)
            .as("page of " + bytes + " bytes")
            .isTrue();
        for (Item item : page.getItemsList()) {
          Item written = items.get(Integer.parseInt(item.getKey().toStringUtf8().substring(1)));
          assertThat(item.getValue()).isEqualTo(written.getValue());
          assertThat(item.getMetadata().getValueSize()).isEqualTo(written.getValue().size());
          seen.add(item.getKey().toStringUtf8());
        }
        pageToken = page.getNextPageToken();
        pages++;
      } while (!pageToken.isEmpty());
      List<String> expected = items.stream().map(i -> i.getKey().toStringUtf8()).sorted().toList();
      List<String> ordered = new ArrayList<>(expected);
      if (ns.equals("kv_desc")) {
        java.util.Collections.reverse(ordered);
      }
      assertThat(seen).containsExactlyElementsOf(ordered);
      assertThat(pages).isGreaterThan(5);
    }
  }

  @Test
  void item_limit_spans_pages_and_values_can_be_left_out() {
    List<Item> items = new ArrayList<>();
    for (int i = 0; i < 30; i++) {
      items.add(item(String.format("i%02d", i), "x".repeat(100)));
    }
    put("kv_asc", "limit", 0, items.toArray(Item[]::new));
    List<String> keys = new ArrayList<>();
    String token = "";
    do {
      JsonNode page =
          server
              .post(
                  "GetItems",
                  "{\"namespace\": \"kv_asc\", \"id\": \"limit\", \"page_token\": \""
                      + token
                      + "\", \"selection\": {\"page_size_bytes\": 1000, \"item_limit\": 17, \"include_values\": false}}")
              .body();
      page.path("items")
          .forEach(
              i -> {
                keys.add(utf8(i.path("key").asText()));
                assertThat(i.path("value").asText()).isEmpty();
                assertThat(i.path("metadata").path("valueSize").asLong()).isEqualTo(100);
              });
      token = page.path("nextPageToken").asText();
    } while (!token.isEmpty());
    assertThat(keys).hasSize(17).first().isEqualTo("i00");
    assertThat(keys).last().isEqualTo("i16");
  }

  @Test
  void a_page_token_of_another_request_is_refused() {
    put("kv_asc", "tok", 0, item("a", "1"), item("b", "2"), item("c", "3"));
    String token =
        server
            .post(
                "GetItems",
                "{\"namespace\": \"kv_asc\", \"id\": \"tok\","
                    + " \"selection\": {\"page_size_bytes\": 2}}")
            .body()
            .path("nextPageToken")
            .asText();
    assertThat(token).isNotEmpty();
    TestServer.Reply other =
        server.post(
            "GetItems",
            "{\"namespace\": \"kv_asc\", \"id\": \"other\","
                + " \"page_token\": \""
                + token
                + "\", \"selection\": {\"page_size_bytes\": 2}}");
    assertThat(other.status()).isEqualTo(400);
    assertThat(other.errorField()).isEqualTo("page_token");
  }

  @Test
  void wrong_service_namespaces_are_refused_naming_namespace() {
    TestServer.Reply kvOnTs = put("kv_ts", "x", 0, item("k", "v"));
    assertThat(kvOnTs.status()).isEqualTo(400);
    assertThat(kvOnTs.errorField()).isEqualTo("namespace");
    assertThat(kvOnTs.errorMessage()).contains("TIME_SERIES");
    TestServer.Reply tsOnKv =
        server.post(
            "ReadEventRecords",
            "{\"namespace\": \"kv_asc\", \"time_series_id\": \"x\","
                + " \"time_interval\": {\"start\": \"2024-01-01T00:00:00Z\", \"end\": \"2024-01-02T00:00:00Z\"}}");
    assertThat(tsOnKv.status()).isEqualTo(400);
    assertThat(tsOnKv.errorField()).isEqualTo("namespace");
    assertThatThrownBy(
            () ->
                grpc.getItems(
                    GetItemsRequest.newBuilder().setNamespace("kv_ts").setId("x").build()))
        .isInstanceOfSatisfying(
            StatusRuntimeException.class,
            e -> assertThat(e.getStatus().getCode()).isEqualTo(Status.Code.INVALID_ARGUMENT));
  }

  @Test
  void the_clustering_order_and_table_cannot_change_and_mixed_configurations_are_refused() {
    TestServer.Reply order =
        server.post(
            "UpdateNamespace",
            """
        {"namespace": "kv_desc", "persistence_configuration": [{"id": "PRIMARY_STORAGE", "physical_storage": {
          "dataset": "kv_api_it", "table": "records_desc", "config": {"clustering_order": "ASC"}}}]}""");
    assertThat(order.status()).isEqualTo(400);
    assertThat(order.errorField())
        .isEqualTo("persistence_configuration[0].physicalStorage.config.clusteringOrder");
    TestServer.Reply mixed =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_mixed", "persistence_configuration": [{"id": "PRIMARY_STORAGE", "physical_storage": {
          "dataset": "kv_api_it", "table": "mixed"}, "config": {"timePartition": {"eventBuckets": 2}}}]}""");
    assertThat(mixed.status()).isEqualTo(400);
    assertThat(mixed.errorField()).isEqualTo("persistence_configuration[0].physicalStorage.table");
    TestServer.Reply named =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_named", "service": "TIME_SERIES", "persistence_configuration": [{"id": "PRIMARY_STORAGE",
          "physical_storage": {"dataset": "kv_api_it", "table": "named"}}]}""");
    assertThat(named.status()).isEqualTo(400);
    assertThat(named.errorField()).isEqualTo("persistence_configuration[0].physicalStorage.table");
  }

  @Test
  void answers_are_counted_against_the_namespaces_objectives_and_unknown_names_make_no_series() {
    double before = sloAnswers("kv_asc", "PutItems");
    for (int i = 0; i < 5; i++) {
      assertThat(put("kv_asc", "slo", 0, item("k" + i, "v")).status()).isEqualTo(200);
    }
    assertThat(sloAnswers("kv_asc", "PutItems") - before)
        .as("varve_slo_requests_total of kv_asc's PutItems, within and over its objectives")
        .isEqualTo(5);

    assertThat(server.post("GetItems", "{\"namespace\": \"kv_no_such\", \"id\": \"r\"}").status())
        .isEqualTo(404);
    assertThat(server.metricsText()).doesNotContain("namespace=\"kv_no_such\"");
  }

  /** The answers of a namespace's endpoint in {@code varve_slo_requests_total}, every latency. */
  static double sloAnswers(String ns, String endpoint) {
    double sum = 0;
    for (String line : server.metricsText().lines().toList()) {
      if (line.startsWith("varve_slo_requests_total{")
          && line.contains("endpoint=\"" + endpoint + "\"")
          && line.contains("namespace=\"" + ns + "\"")) {
        sum += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
      }
    }
    return sum;
  }

  // helpers

  static IdempotencyToken token() {
    Instant now = Instant.now();
    return IdempotencyToken.newBuilder()
        .setToken(UUID.randomUUID().toString())
        .setGenerationTime(
            Timestamp.newBuilder().setSeconds(now.getEpochSecond()).setNanos(now.getNano()))
        .build();
  }

  /** Long values as their first characters, length and hash: a failure message stays readable. */
  static List<String> abridged(List<String> values) {
    return values.stream()
        .map(v -> v.length() <= 64 ? v : v.substring(0, 8) + "…" + v.length() + "#" + v.hashCode())
        .toList();
  }

  static Item item(String key, String value) {
    return Item.newBuilder()
        .setKey(ByteString.copyFromUtf8(key))
        .setValue(ByteString.copyFromUtf8(value))
        .build();
  }

  static TestServer.Reply put(String ns, String id, int unused, Item... items) {
    return put(ns, id, Instant.now(), UUID.randomUUID().toString(), items);
  }

  static TestServer.Reply put(String ns, String id, Instant time, String token, Item... items) {
    StringBuilder body =
        new StringBuilder(
            "{\"namespace\": \""
                + ns
                + "\", \"id\": \""
                + id
                + "\", \"idempotency_token\": {\"generation_time\": \""
                + time
                + "\", \"token\": \""
                + token
                + "\"}, \"items\": [");
    for (int i = 0; i < items.length; i++) {
      body.append(i == 0 ? "" : ",")
          .append("{\"key\": \"")
          .append(b64(items[i].getKey().toByteArray()))
          .append("\", \"value\": \"")
          .append(b64(items[i].getValue().toByteArray()))
          .append("\"}");
    }
    TestServer.Reply reply = server.post("PutItems", body.append("]}").toString());
    return reply;
  }

  /** "key=value" of every item the predicate matches, all pages. */
  static List<String> values(String ns, String id, String predicate) {
    List<String> found = new ArrayList<>();
    String token = "";
    do {
      TestServer.Reply reply =
          server.post(
              "GetItems",
              "{\"namespace\": \""
                  + ns
                  + "\", \"id\": \""
                  + id
                  + "\", \"predicate\": "
                  + predicate
                  + ", \"page_token\": \""
                  + token
                  + "\"}");
      assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
      reply
          .body()
          .path("items")
          .forEach(
              i -> found.add(utf8(i.path("key").asText()) + "=" + utf8(i.path("value").asText())));
      token = reply.body().path("nextPageToken").asText();
    } while (!token.isEmpty());
    return found;
  }

  static String range(String start, String end, Boolean startInclusive, Boolean endInclusive) {
    List<String> parts = new ArrayList<>();
    if (start != null) {
      parts.add("\"start\": \"" + b64(start) + "\"");
    }
    if (end != null) {
      parts.add("\"end\": \"" + b64(end) + "\"");
    }
    if (startInclusive != null) {
      parts.add("\"start_inclusive\": " + startInclusive);
    }
    if (endInclusive != null) {
      parts.add("\"end_inclusive\": " + endInclusive);
    }
    return "{\"match_range\": {" + String.join(", ", parts) + "}}";
  }

  static String b64(String s) {
    return b64(s.getBytes(StandardCharsets.UTF_8));
  }

  static String b64(byte[] b) {
    return Base64.getEncoder().encodeToString(b);
  }

  static String utf8(String base64) {
    return new String(Base64.getDecoder().decode(base64), StandardCharsets.UTF_8);
  }
}
