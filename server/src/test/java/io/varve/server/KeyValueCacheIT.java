package io.varve.server;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MatchAll;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The point-read cache of namespaces with a CACHE entry, on the real local Cassandra: a miss fills
 * it, a write invalidates it, its TTL ends it, and a namespace without CACHE never uses it. Each
 * test reads the cache's hit and miss counters around its own calls.
 */
class KeyValueCacheIT {

  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub grpc;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_kv_cache_it", "kv_cache_it");
    create("kv_cached", ", {\"id\": \"CACHE\", \"config\": {\"default_cache_ttl\": \"3600s\"}}");
    create("kv_brief", ", {\"id\": \"CACHE\", \"config\": {\"default_cache_ttl\": \"1s\"}}");
    create("kv_uncached", "");
    grpc = server.keyValue();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  static void create(String namespace, String cache) {
    TestServer.Reply reply =
        server.post(
            "CreateNamespace",
            "{\"namespace\": \""
                + namespace
                + "\", \"persistence_configuration\": [{\"id\": \"PRIMARY_STORAGE\","
                + " \"physical_storage\": {\"dataset\": \"kv_cache_it\", \"table\": \""
                + namespace
                + "\"}}"
                + cache
                + "]}");
    assertThat(reply.status()).as(reply.body().toString()).isEqualTo(200);
  }

  static void put(String namespace, String id, Item... items) {
    grpc.putItems(
        PutItemsRequest.newBuilder()
            .setNamespace(namespace)
            .setId(id)
            .setIdempotencyToken(KeyValueApiIT.token())
            .addAllItems(List.of(items))
            .build());
  }

  static void delete(String namespace, String id, Predicate predicate) {
    grpc.deleteItems(
        DeleteItemsRequest.newBuilder()
            .setNamespace(namespace)
            .setId(id)
            .setIdempotencyToken(KeyValueApiIT.token())
            .setPredicate(predicate)
            .build());
  }

  /** "key=value" of the point read of {@code keys}. */
  static List<String> get(String namespace, String id, String... keys) {
    MatchKeys.Builder match = MatchKeys.newBuilder();
    for (String key : keys) {
      match.addKeys(com.google.protobuf.ByteString.copyFromUtf8(key));
    }
    GetItemsResponse page =
        grpc.getItems(
            GetItemsRequest.newBuilder()
                .setNamespace(namespace)
                .setId(id)
                .setPredicate(Predicate.newBuilder().setMatchKeys(match))
                .build());
    return page.getItemsList().stream()
        .map(i -> i.getKey().toStringUtf8() + "=" + i.getValue().toStringUtf8())
        .toList();
  }

  static double hits() {
    return server.metric("varve_kv_cache_hits_total");
  }

  static double misses() {
    return server.metric("varve_kv_cache_misses_total");
  }

  @Test
  void a_point_read_misses_then_hits_with_the_same_items() {
    put("kv_cached", "r1", KeyValueApiIT.item("a", "1"), KeyValueApiIT.item("b", "2"));
    double hits = hits();
    double misses = misses();

    assertThat(get("kv_cached", "r1", "b", "a", "absent")).containsExactly("a=1", "b=2");
    assertThat(misses() - misses).isEqualTo(1);
    assertThat(hits() - hits).isZero();
    assertThat(get("kv_cached", "r1", "b", "a", "absent")).containsExactly("a=1", "b=2");
    assertThat(hits() - hits).isEqualTo(1);
    assertThat(misses() - misses).isEqualTo(1);
    // the absent key is cached as absent: a read of it alone hits too
    assertThat(get("kv_cached", "r1", "absent")).isEmpty();
    assertThat(hits() - hits).isEqualTo(2);
  }

  @Test
  void this_servers_puts_and_deletes_invalidate_what_they_touch() {
    put("kv_cached", "r2", KeyValueApiIT.item("a", "1"), KeyValueApiIT.item("b", "2"));
    get("kv_cached", "r2", "a", "b");
    double misses = misses();

    put("kv_cached", "r2", KeyValueApiIT.item("a", "one"));
    assertThat(get("kv_cached", "r2", "a", "b")).containsExactly("a=one", "b=2");
    assertThat(misses() - misses).isEqualTo(1);

    put("kv_cached", "r2", KeyValueApiIT.item("c", "3")); // an absent key cached, then written
    get("kv_cached", "r2", "c", "d");
    put("kv_cached", "r2", KeyValueApiIT.item("d", "4"));
    assertThat(get("kv_cached", "r2", "c", "d")).containsExactly("c=3", "d=4");

    delete(
        "kv_cached",
        "r2",
        Predicate.newBuilder()
            .setMatchKeys(
                MatchKeys.newBuilder().addKeys(com.google.protobuf.ByteString.copyFromUtf8("a")))
            .build());
    assertThat(get("kv_cached", "r2", "a", "b")).containsExactly("b=2");

    get("kv_cached", "r2", "b", "c");
    delete(
        "kv_cached",
        "r2",
        Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build());
    assertThat(get("kv_cached", "r2", "b", "c")).isEmpty();
  }

  @Test
  void an_item_expires_from_the_cache_after_the_namespace_ttl() throws InterruptedException {
    put("kv_brief", "r3", KeyValueApiIT.item("a", "1"));
    get("kv_brief", "r3", "a");
    // the read filled the cache before it answered; the entry ends the namespace's TTL (1 s) later
    // on the cache's clock, System.nanoTime of this JVM (the server runs in it)
    long expiry = System.nanoTime() + Duration.ofSeconds(1).toNanos();
    double hits = hits();
    double misses = misses();
    assertThat(get("kv_brief", "r3", "a")).containsExactly("a=1");
    assertThat(hits() - hits).isEqualTo(1);

    for (long left = expiry - System.nanoTime(); left > 0; left = expiry - System.nanoTime()) {
      Thread.sleep(TimeUnit.NANOSECONDS.toMillis(left) + 1); // the TTL running is the subject
    }

    assertThat(get("kv_brief", "r3", "a")).containsExactly("a=1");
    assertThat(hits() - hits).isEqualTo(1);
    assertThat(misses() - misses).isEqualTo(1);
  }

  @Test
  void a_namespace_without_a_cache_entry_never_uses_the_cache() {
    put("kv_uncached", "r4", KeyValueApiIT.item("a", "1"));
    double hits = hits();
    double misses = misses();

    for (int i = 0; i < 3; i++) {
      assertThat(get("kv_uncached", "r4", "a")).containsExactly("a=1");
    }

    assertThat(hits() - hits).isZero();
    assertThat(misses() - misses).isZero();
  }
}
