package io.varve.verify.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.MatchRange;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import java.time.Instant;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;

class KvModelTest {

  static final Instant T = Instant.parse("2026-01-01T00:00:00Z");
  static final Outcome OK = new Outcome("200", new byte[0], null);
  static final Outcome REFUSED = new Outcome("400", new byte[0], "bad");
  static final Outcome FAULT = new Outcome("500", new byte[0], "boom");

  final KvModel model = new KvModel();
  int index;

  @Test
  void the_later_generation_time_stays_whatever_the_order_the_writes_arrived_in() {
    send(put(2, "k", "newer"), OK);
    send(put(1, "k", "older"), OK);

    assertThat(expected("k")).contains(Set.of(bytes("newer")));
  }

  @Test
  void a_range_delete_hides_older_writes_of_its_keys_only_even_when_they_arrive_after_it() {
    send(put(1, "a", "1"), OK);
    send(put(1, "b", "1"), OK);
    send(delete(3, range("a", "b")), OK);
    send(put(2, "a", "late"), OK);
    send(put(4, "b", "after"), OK);

    assertThat(expected("a")).contains(singletonAbsent());
    assertThat(expected("b")).contains(Set.of(bytes("after")));
  }

  @Test
  void a_refused_put_leaves_its_key_absent_and_a_server_fault_leaves_it_unknown() {
    send(put(1, "r", "x"), REFUSED);
    send(put(1, "u", "x"), FAULT);

    assertThat(model.records.values().iterator().next().keys).contains(bytes("r"), bytes("u"));
    assertThat(expected("r")).contains(singletonAbsent());
    assertThat(expected("u")).isEmpty();
  }

  @Test
  void two_mutations_at_one_generation_time_allow_either() {
    send(put(5, "k", "one"), OK);
    send(put(5, "k", "two"), OK);

    assertThat(expected("k")).contains(Set.of(bytes("one"), bytes("two")));
  }

  private void send(Message m, Outcome o) {
    String rpc = m instanceof PutItemsRequest ? "PutItems" : "DeleteItems";
    model.record(
        index++,
        new FuzzCase(
            rpc,
            FuzzCase.Kind.VALID,
            "",
            FuzzCase.Transport.JSON,
            "/v1/" + rpc,
            "POST",
            Map.of(),
            new byte[0],
            m,
            m),
        o);
  }

  private Optional<Set<ByteString>> expected(String key) {
    return model.records.get(new KvModel.RecordKey("ns", "r")).expected(bytes(key));
  }

  private static Set<ByteString> singletonAbsent() {
    Set<ByteString> absent = new java.util.HashSet<>();
    absent.add(null);
    return absent;
  }

  private static IdempotencyToken token(int seconds) {
    return IdempotencyToken.newBuilder()
        .setGenerationTime(ApiGrammar.timestamp(T.plusSeconds(seconds)))
        .setToken("t" + seconds)
        .build();
  }

  private static PutItemsRequest put(int at, String key, String value) {
    return PutItemsRequest.newBuilder()
        .setIdempotencyToken(token(at))
        .setNamespace("ns")
        .setId("r")
        .addItems(Item.newBuilder().setKey(bytes(key)).setValue(bytes(value)))
        .build();
  }

  private static DeleteItemsRequest delete(int at, Predicate p) {
    return DeleteItemsRequest.newBuilder()
        .setIdempotencyToken(token(at))
        .setNamespace("ns")
        .setId("r")
        .setPredicate(p)
        .build();
  }

  /** [start, end] with both bounds in. */
  private static Predicate range(String start, String end) {
    return Predicate.newBuilder()
        .setMatchRange(
            MatchRange.newBuilder().setStart(bytes(start)).setEnd(bytes(end)).setEndInclusive(true))
        .build();
  }

  private static ByteString bytes(String s) {
    return ByteString.copyFromUtf8(s);
  }
}
