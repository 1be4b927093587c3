package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MatchAll;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.MatchRange;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.cassandra.kv.CqlItemWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * DeleteItems of each kind, ordered by the token's generation time against puts, and the tombstones
 * each kind leaves on disk of the real node.
 */
class KeyValueDeleteIT {

  static final Predicate ALL =
      Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build();

  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub grpc;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_kv_delete_it", "kv_delete_it");
    TestServer.Reply created =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_del", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_delete_it", "table": "items"}}]}""");
    assertThat(created.status()).as(created.body().toString()).isEqualTo(200);
    TestServer.Reply counted =
        server.post(
            "CreateNamespace",
            """
        {"namespace": "kv_del_counted", "service": "KEY_VALUE", "persistence_configuration": [
          {"id": "PRIMARY_STORAGE", "physical_storage": {"dataset": "kv_delete_it", "table": "counted"}}]}""");
    assertThat(counted.status()).as(counted.body().toString()).isEqualTo(200);
    grpc =
        GrpcClients.newClient(
            "http://127.0.0.1:" + server.server.port(), KeyValueGrpc.KeyValueBlockingStub.class);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void match_all_deletes_the_record_match_range_its_range_match_keys_its_keys_at_once() {
    Instant t = Instant.now();
    for (String id : List.of("all", "range", "keys")) {
      put("kv_del", id, t.minusMillis(10), "a", "b", "c", "d");
    }
    delete("kv_del", "all", t, ALL);
    delete("kv_del", "range", t, range("b", "c"));
    delete("kv_del", "keys", t, keys("a", "c", "zz"));
    assertThat(keys("kv_del", "all")).isEmpty();
    assertThat(keys("kv_del", "range")).containsExactly("a", "d");
    assertThat(keys("kv_del", "keys")).containsExactly("b", "d");
    // expired items are hidden from every predicate and from item counts of pages
    assertThat(keys("kv_del", "keys", keys("a", "b", "c"))).containsExactly("b");
    assertThat(keys("kv_del", "keys", range("a", "c"))).containsExactly("b");
  }

  @Test
  void a_delete_older_than_a_put_does_not_remove_it_and_a_put_older_than_a_delete_stays_deleted() {
    Instant t = Instant.now();
    for (Predicate kind : List.of(ALL, range("a", "z"), keys("k"))) {
      String id = "order-" + kind.getMatchCase();
      put("kv_del", id, t, "k");
      delete("kv_del", id, t.minusMillis(5), kind); // delivered late: older than the put
      assertThat(keys("kv_del", id)).as(kind.getMatchCase().toString()).containsExactly("k");
      String later = "later-" + kind.getMatchCase();
      delete("kv_del", later, t, kind);
      put("kv_del", later, t.minusMillis(5), "k"); // a retried put older than the delete
      assertThat(keys("kv_del", later)).as(kind.getMatchCase().toString()).isEmpty();
    }
  }

  @Test
  void each_kind_leaves_the_tombstones_it_promises_on_disk() throws Exception {
    Instant t = Instant.now();
    String[] items = new String[50];
    for (int i = 0; i < items.length; i++) {
      items[i] = String.format("k%02d", i);
    }
    for (String id : List.of("all", "range", "keys")) {
      put("kv_del_counted", id, t.minusMillis(10), items);
    }
    delete("kv_del_counted", "all", t, ALL);
    delete("kv_del_counted", "range", t, range("k10", "k39"));
    delete("kv_del_counted", "keys", t, keys("k01", "k02", "k03"));

    Map<String, SstableTombstones.Counts> counts =
        SstableTombstones.of(server.cql, "kv_delete_it", "counted");
    SstableTombstones.Counts all = counts.get("all");
    assertThat(all.partitionDeletions()).isEqualTo(1);
    assertThat(all.rangeTombstones()).isZero();
    assertThat(all.cellTombstones()).isZero();
    SstableTombstones.Counts range = counts.get("range");
    assertThat(range.partitionDeletions()).isZero();
    assertThat(range.rangeTombstones()).isEqualTo(1);
    assertThat(range.cellTombstones()).isZero();
    SstableTombstones.Counts expired = counts.get("keys");
    assertThat(expired.partitionDeletions()).isZero();
    assertThat(expired.rangeTombstones()).isZero();
    // no tombstone at all: three rows whose every cell expires with one jittered TTL
    assertThat(expired.cellTombstones()).isZero();
    assertThat(expired.expiringRows()).isEqualTo(3);
    assertThat(expired.ttls())
        .allSatisfy(
            ttl ->
                assertThat(ttl)
                    .isBetween(
                        CqlItemWriter.EXPIRY_MIN.toSeconds(),
                        CqlItemWriter.EXPIRY_MAX.toSeconds()));
  }

  static void put(String ns, String id, Instant time, String... keys) {
    PutItemsRequest.Builder request =
        PutItemsRequest.newBuilder().setNamespace(ns).setId(id).setIdempotencyToken(token(time));
    for (String key : keys) {
      request.addItems(
          Item.newBuilder()
              .setKey(ByteString.copyFromUtf8(key))
              .setValue(ByteString.copyFromUtf8("v")));
    }
    grpc.putItems(request.build());
  }

  static void delete(String ns, String id, Instant time, Predicate predicate) {
    grpc.deleteItems(
        DeleteItemsRequest.newBuilder()
            .setNamespace(ns)
            .setId(id)
            .setIdempotencyToken(token(time))
            .setPredicate(predicate)
            .build());
  }

  static List<String> keys(String ns, String id) {
    return keys(ns, id, ALL);
  }

  static List<String> keys(String ns, String id, Predicate predicate) {
    return grpc
        .getItems(
            GetItemsRequest.newBuilder().setNamespace(ns).setId(id).setPredicate(predicate).build())
        .getItemsList()
        .stream()
        .map(i -> i.getKey().toStringUtf8())
        .toList();
  }

  static Predicate range(String start, String end) {
    return Predicate.newBuilder()
        .setMatchRange(
            MatchRange.newBuilder()
                .setStart(ByteString.copyFromUtf8(start))
                .setEnd(ByteString.copyFromUtf8(end))
                .setEndInclusive(true))
        .build();
  }

  static Predicate keys(String... keys) {
    MatchKeys.Builder b = MatchKeys.newBuilder();
    for (String key : keys) {
      b.addKeys(ByteString.copyFromUtf8(key));
    }
    return Predicate.newBuilder().setMatchKeys(b).build();
  }

  static IdempotencyToken token(Instant time) {
    return IdempotencyToken.newBuilder()
        .setToken(UUID.randomUUID().toString())
        .setGenerationTime(
            Timestamp.newBuilder().setSeconds(time.getEpochSecond()).setNanos(time.getNano()))
        .build();
  }
}
