package io.varve.server;

import static io.varve.server.KeyValueApiIT.item;
import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Timestamp;
import io.varve.api.kv.v1.DeleteOperation;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.KeyValueGrpc;
import io.varve.api.kv.v1.MatchAll;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.MatchRange;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.MutateItemsResponse;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutOperation;
import io.varve.server.json.ProtoJson;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * MutateItems end to end on the real local Cassandra: several records in one call, ordering by the
 * token's generation time, whole validation (nothing written when any mutation is invalid).
 */
class KeyValueMutateIT {

  static final String NS = "kv_mutate";

  static TestServer server;
  static KeyValueGrpc.KeyValueBlockingStub grpc;

  @BeforeAll
  static void start() {
    server = new TestServer("varve_kv_mutate_it", "kv_mutate_it");
    server.createKeyValueNamespace(NS, "kv_mutate_it", "items", "ASC");
    grpc = server.keyValue();
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  @Test
  void a_batch_over_three_records_puts_and_deletes_each_at_the_token_time() {
    put("r1", item("old", "x"), item("keep", "k"));
    put("r2", item("a", "1"), item("b", "2"), item("c", "3"), item("d", "4"));
    Instant now = Instant.now();
    MutateItemsResponse response =
        grpc.mutateItems(
            request(
                now,
                puts("r1", item("new", "n")),
                delete("r1", keys("old")),
                delete("r2", range("b", "d")),
                puts("r3", item("x", "1"), item("y", "2")),
                puts("r3", item("z", "3"))));
    assertThat(response.getMutationCount()).isEqualTo(5);
    assertThat(response.getRecordCount()).isEqualTo(3);
    assertThat(read("r1")).containsExactly("keep=k", "new=n");
    assertThat(read("r2")).containsExactly("a=1", "d=4");
    assertThat(read("r3")).containsExactly("x=1", "y=2", "z=3");
    long micros = now.getEpochSecond() * 1_000_000L + now.getNano() / 1000;
    for (String id : List.of("r1", "r3")) {
      server
          .cql
          .execute(
              "SELECT key, WRITETIME(value_metadata) FROM kv_mutate_it.items WHERE id = '"
                  + id
                  + "'")
          .forEach(
              row -> {
                if (!StandardCharsets.UTF_8
                    .decode(row.getByteBuffer(0))
                    .toString()
                    .equals("keep")) {
                  assertThat(row.getLong(1)).as(id).isEqualTo(micros);
                }
              });
    }
  }

  @Test
  void a_record_deleted_whole_and_others_written_in_one_call() {
    put("gone", item("a", "1"), item("b", "2"));
    grpc.mutateItems(
        request(
            Instant.now(),
            delete(
                "gone", Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build()),
            puts("born", item("a", "1"))));
    assertThat(read("gone")).isEmpty();
    assertThat(read("born")).containsExactly("a=1");
  }

  @Test
  void an_older_token_never_overwrites_a_newer_one_and_a_replay_has_no_effect() {
    Instant t2 = Instant.now();
    Instant t1 = t2.minusMillis(10);
    MutateItemsRequest newer =
        request(t2, puts("lww1", item("k", "second")), puts("lww2", item("k", "second")));
    grpc.mutateItems(newer);
    // the older request arrives later: neither its puts nor its record delete take
    grpc.mutateItems(
        request(
            t1,
            puts("lww1", item("k", "first")),
            delete(
                "lww2",
                Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build())));
    assertThat(read("lww1")).containsExactly("k=second");
    assertThat(read("lww2")).containsExactly("k=second");
    // a replay of the newer request: the same cells at the same time
    grpc.mutateItems(newer);
    assertThat(read("lww1")).containsExactly("k=second");
    // and a later one wins
    grpc.mutateItems(request(Instant.now(), puts("lww1", item("k", "third"))));
    assertThat(read("lww1")).containsExactly("k=third");
  }

  @Test
  void a_request_with_an_invalid_last_mutation_writes_nothing() {
    List<Mutation> valid =
        List.of(
            puts("whole1", item("a", "1")),
            delete("whole2", keys("a")),
            puts("whole3", item("b", "2")));
    List<Mutation> invalid =
        List.of(
            puts("whole4", Item.newBuilder().setKey(ByteString.copyFrom(new byte[5000])).build()),
            puts("", item("a", "1")),
            delete("whole4", Predicate.getDefaultInstance()),
            Mutation.newBuilder().setId("whole4").build(),
            puts("whole1", item("a", "again")));
    List<String> fields =
        List.of(
            "mutations[3].put.items[0].key",
            "mutations[3].id",
            "mutations[3].delete.predicate",
            "mutations[3]",
            "mutations[3].put.items[0].key");
    SoftAssertions soft = new SoftAssertions();
    for (int i = 0; i < invalid.size(); i++) {
      List<Mutation> all = new ArrayList<>(valid);
      all.add(invalid.get(i));
      TestServer.Reply reply = post(request(Instant.now(), all.toArray(Mutation[]::new)));
      soft.assertThat(reply.status()).as(reply.body().toString()).isEqualTo(400);
      soft.assertThat(reply.errorField()).as(reply.body().toString()).isEqualTo(fields.get(i));
    }
    soft.assertAll();
    for (String id : List.of("whole1", "whole2", "whole3", "whole4")) {
      assertThat(read(id)).as(id).isEmpty();
    }
  }

  @Test
  void malformed_requests_are_refused_naming_their_field() {
    List<Mutation> tooManyRecords = new ArrayList<>();
    for (int i = 0; i < 101; i++) {
      tooManyRecords.add(puts("many" + i, item("k", "v")));
    }
    List<Mutation> tooManyRows = new ArrayList<>();
    for (int i = 0; i < 11; i++) {
      List<Item> items = new ArrayList<>();
      for (int k = 0; k < 100; k++) {
        items.add(item(i + "-" + k, "v"));
      }
      tooManyRows.add(puts("rows", items.toArray(Item[]::new)));
    }
    record Case(MutateItemsRequest request, String field, String message) {}
    List<Case> cases =
        List.of(
            new Case(
                request(Instant.now()).toBuilder()
                    .clearIdempotencyToken()
                    .addMutations(puts("m", item("a", "1")))
                    .build(),
                "idempotency_token",
                "missing"),
            new Case(request(Instant.now()), "mutations", "1..1000"),
            new Case(
                request(Instant.now(), tooManyRecords.toArray(Mutation[]::new)),
                "mutations",
                "100 records"),
            new Case(
                request(Instant.now(), tooManyRows.toArray(Mutation[]::new)),
                "mutations",
                "rows written"),
            new Case(
                request(Instant.now(), puts("m", item("a", "1")), delete("m", keys("a"))),
                "mutations[1].delete.predicate",
                "both put and deleted"),
            new Case(
                request(
                    Instant.now(),
                    delete(
                        "m",
                        Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build()),
                    puts("m", item("a", "1"))),
                "mutations[1].put.items[0].key",
                "both put and deleted"),
            new Case(
                request(Instant.now(), puts("m", item("a", "1")), puts("m", item("a", "2"))),
                "mutations[1].put.items[0].key",
                "also put by mutations[0]"),
            // values above 1 MiB go to chunks, but a request's keys and values stay within 4 MiB
            new Case(
                request(
                    Instant.now(),
                    puts(
                        "m",
                        Item.newBuilder()
                            .setKey(ByteString.copyFromUtf8("k1"))
                            .setValue(ByteString.copyFrom(new byte[2_500_000]))
                            .build(),
                        Item.newBuilder()
                            .setKey(ByteString.copyFromUtf8("k2"))
                            .setValue(ByteString.copyFrom(new byte[2_500_000]))
                            .build())),
                "mutations",
                "at most 4194304"),
            new Case(
                request(
                    Instant.now(),
                    Mutation.newBuilder()
                        .setId("m")
                        .setPut(PutOperation.getDefaultInstance())
                        .build()),
                "mutations[0].put.items",
                "1..1000"),
            new Case(
                request(Instant.now(), delete("m", range("z", "a"))),
                "mutations[0].delete.predicate.match_range.end",
                "below start"));
    SoftAssertions soft = new SoftAssertions();
    for (Case c : cases) {
      TestServer.Reply reply = post(c.request());
      soft.assertThat(reply.status()).as(c.field() + ": " + reply.body()).isEqualTo(400);
      soft.assertThat(reply.errorField()).as(reply.body().toString()).isEqualTo(c.field());
      soft.assertThat(reply.errorMessage()).as(c.field()).contains(c.message());
    }
    soft.assertAll();
    for (String id : List.of("m", "many0", "many100", "rows")) {
      assertThat(read(id)).as(id).isEmpty();
    }
  }

  // helpers

  static MutateItemsRequest request(Instant time, Mutation... mutations) {
    return MutateItemsRequest.newBuilder()
        .setNamespace(NS)
        .setIdempotencyToken(
            IdempotencyToken.newBuilder()
                .setToken(UUID.randomUUID().toString())
                .setGenerationTime(
                    Timestamp.newBuilder()
                        .setSeconds(time.getEpochSecond())
                        .setNanos(time.getNano())))
        .addAllMutations(List.of(mutations))
        .build();
  }

  static Mutation puts(String id, Item... items) {
    return Mutation.newBuilder()
        .setId(id)
        .setPut(PutOperation.newBuilder().addAllItems(List.of(items)))
        .build();
  }

  static Mutation delete(String id, Predicate predicate) {
    return Mutation.newBuilder()
        .setId(id)
        .setDelete(DeleteOperation.newBuilder().setPredicate(predicate))
        .build();
  }

  static Predicate keys(String... keys) {
    MatchKeys.Builder b = MatchKeys.newBuilder();
    for (String k : keys) {
      b.addKeys(ByteString.copyFromUtf8(k));
    }
    return Predicate.newBuilder().setMatchKeys(b).build();
  }

  static Predicate range(String start, String end) {
    return Predicate.newBuilder()
        .setMatchRange(
            MatchRange.newBuilder()
                .setStart(ByteString.copyFromUtf8(start))
                .setEnd(ByteString.copyFromUtf8(end)))
        .build();
  }

  @Test
  void a_large_value_put_by_mutate_items_is_stored_in_chunks_and_read_whole() {
    byte[] big = new byte[1_500_000];
    new java.util.Random(5).nextBytes(big);
    put(
        "large",
        Item.newBuilder()
            .setKey(ByteString.copyFromUtf8("big"))
            .setValue(ByteString.copyFrom(big))
            .build());
    var items =
        grpc.getItems(GetItemsRequest.newBuilder().setNamespace(NS).setId("large").build())
            .getItemsList();
    assertThat(items).hasSize(1);
    assertThat(items.get(0).getValue().toByteArray()).isEqualTo(big);
  }

  static void put(String id, Item... items) {
    grpc.mutateItems(request(Instant.now().minusSeconds(1), puts(id, items)));
  }

  /** Over JSON, to see the error body. */
  static TestServer.Reply post(MutateItemsRequest request) {
    return server.post("MutateItems", new ProtoJson().print(request));
  }

  /** "key=value" of every item of a record. */
  static List<String> read(String id) {
    List<String> found = new ArrayList<>();
    grpc.getItems(GetItemsRequest.newBuilder().setNamespace(NS).setId(id).build())
        .getItemsList()
        .forEach(i -> found.add(i.getKey().toStringUtf8() + "=" + i.getValue().toStringUtf8()));
    return found;
  }
}
