package io.varve.verify.fuzz;

import static io.varve.verify.fuzz.KvGrammar.MIB;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.varve.api.common.v1.ClientSignals;
import io.varve.api.common.v1.HandshakeRequest;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutOperation;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.Selection;
import java.util.List;
import java.util.function.IntFunction;
import java.util.function.Supplier;

/**
 * KeyValue requests at and just over each bound of docs/key-value.md and docs/limits.md: at the
 * bound served, over it refused with a 4xx naming the field, never a 5xx. Each names its own record
 * ({@code h<n>}), so that a thousand-item record does not slow the reads of the others.
 */
final class KvSizes {

  private final KvGrammar kv;

  private KvSizes(KvGrammar kv) {
    this.kv = kv;
  }

  static void addTo(List<HostileSizes.Sized> out, FuzzWorld w, KvGrammar kv) {
    new KvSizes(kv).build(out, w);
  }

  private void build(List<HostileSizes.Sized> out, FuzzWorld w) {
    String ns = w.kvNamespaces().get(0);
    String desc = w.kvDescNamespace();
    for (int n : new int[] {4096, 4097}) {
      add(
          out,
          "PutItems",
          n + "-byte item key (limit 4096)",
          () -> put(desc, "h1", key(n, 'k'), bytes(1)));
    }
    add(out, "PutItems", "empty item key", () -> put(ns, "h1", ByteString.EMPTY, bytes(3)));
    for (int n : new int[] {1024, 1025}) {
      add(
          out,
          "PutItems",
          n + "-byte record id (limit 1024)",
          () -> put(ns, "i".repeat(n), key(1, 'a'), bytes(2)));
    }
    for (int n : new int[] {1000, 1001}) {
      add(
          out,
          "PutItems",
          n + " items per PutItems (limit 1000)",
          () -> items(ns, "h2", n, i -> item(key(4, 'a' + i % 26, i), bytes(8))));
      add(
          out,
          "DeleteItems",
          n + " match_keys in a delete (limit 1000)",
          () ->
              DeleteItemsRequest.newBuilder()
                  .setIdempotencyToken(kv.token(0, kv.nonce()))
                  .setNamespace(ns)
                  .setId("h2")
                  .setPredicate(keys(n))
                  .build());
      add(
          out,
          "GetItems",
          n + " match_keys in a read (limit 1000)",
          () ->
              GetItemsRequest.newBuilder()
                  .setNamespace(ns)
                  .setId("h2")
                  .setPredicate(keys(n))
                  .build());
      add(out, "MutateItems", n + " mutations (limit 1000)", () -> mutations(ns, n, i -> "h3"));
    }
    for (int n : new int[] {100, 101}) {
      add(
          out,
          "MutateItems",
          n + " records in a MutateItems (limit 100)",
          () -> mutations(ns, n, i -> "m" + i));
    }
    for (int n : new int[] {MIB, MIB + 1}) {
      add(
          out,
          "PutItems",
          n + "-byte value (chunk threshold " + MIB + ")",
          () -> put(ns, "h4", key(1, 'v'), bytes(n)));
    }
    for (int extra : new int[] {0, 1}) {
      // four values at the chunk threshold: 4 MiB of keys and values (the inline batch bound)
      add(
          out,
          "PutItems",
          "4 MiB of inline keys and values" + (extra == 0 ? "" : " + 1 byte") + " (limit 4 MiB)",
          () ->
              items(
                  ns, "h5", 4, i -> item(key(1, 'a' + i), bytes(MIB - 1 + (i == 3 ? extra : 0)))));
    }
    add(
        out,
        "PutItems",
        "64 MiB + 1 byte value (limit 64 MiB)",
        () -> put(ns, "h6", key(1, 'v'), bytes(64 * MIB + 1)));
    for (int n : new int[] {128, 129}) {
      add(
          out,
          "PutItems",
          n + "-character token (limit 128)",
          () ->
              put(ns, "h7", key(1, 't'), bytes(1)).toBuilder()
                  .setIdempotencyToken(kv.token(0, kv.nonce(n)))
                  .build());
    }
    for (long offset : new long[] {-590_000, -610_000, 8_000, 12_000}) {
      add(
          out,
          "PutItems",
          "token generated " + offset + " ms from now (bounds -600000, +10000)",
          () ->
              put(ns, "h7", key(1, 'd'), bytes(2)).toBuilder()
                  .setIdempotencyToken(kv.token(offset, kv.nonce()))
                  .build());
    }
    for (int n : new int[] {0, 1, 16 * MIB, 16 * MIB + 1}) {
      add(
          out,
          "GetItems",
          "page_size_bytes " + n + " (1..16 MiB)",
          () ->
              GetItemsRequest.newBuilder()
                  .setNamespace(ns)
                  .setId("r0")
                  .setSelection(Selection.newBuilder().setPageSizeBytes(n))
                  .build());
    }
    add(
        out,
        "GetItems",
        "item_limit -1",
        () ->
            GetItemsRequest.newBuilder()
                .setNamespace(ns)
                .setId("r0")
                .setSelection(Selection.newBuilder().setItemLimit(-1))
                .build());
    for (int[] seg : new int[][] {{4095, 4096}, {4096, 4096}, {0, 4097}, {0, 0}}) {
      add(
          out,
          "ScanItems",
          "segment " + seg[0] + " of " + seg[1] + " (total 1..4096)",
          () ->
              ScanItemsRequest.newBuilder()
                  .setNamespace(ns)
                  .setSegment(seg[0])
                  .setTotalSegments(seg[1])
                  .build());
    }
    for (int n : new int[] {32, 33}) {
      add(
          out,
          "Handshake",
          n + " client capabilities (limit 32)",
          () -> {
            ClientSignals.Builder c =
                ClientSignals.newBuilder().setName("n".repeat(128)).setVersion("v".repeat(128));
            for (int i = 0; i < n; i++) {
              c.addCapabilities("c".repeat(63) + (char) ('A' + i % 26) + (i >= 26 ? "x" : ""));
            }
            return HandshakeRequest.newBuilder().setNamespace(ns).setClient(c).build();
          });
    }
  }

  private static void add(
      List<HostileSizes.Sized> out, String rpc, String what, Supplier<Message> request) {
    out.add(new HostileSizes.Sized(rpc, what, request));
  }

  private PutItemsRequest put(String ns, String id, ByteString key, ByteString value) {
    return items(ns, id, 1, i -> item(key, value));
  }

  private PutItemsRequest items(String ns, String id, int n, IntFunction<Item> item) {
    PutItemsRequest.Builder b =
        PutItemsRequest.newBuilder()
            .setIdempotencyToken(kv.token(0, kv.nonce()))
            .setNamespace(ns)
            .setId(id);
    for (int i = 0; i < n; i++) {
      b.addItems(item.apply(i));
    }
    return b.build();
  }

  private MutateItemsRequest mutations(String ns, int n, IntFunction<String> id) {
    MutateItemsRequest.Builder b =
        MutateItemsRequest.newBuilder()
            .setIdempotencyToken(kv.token(0, kv.nonce()))
            .setNamespace(ns);
    for (int i = 0; i < n; i++) {
      b.addMutations(
          Mutation.newBuilder()
              .setId(id.apply(i))
              .setPut(PutOperation.newBuilder().addItems(item(key(4, 'a' + i % 26, i), bytes(1)))));
    }
    return b.build();
  }

  private static Predicate keys(int n) {
    MatchKeys.Builder k = MatchKeys.newBuilder();
    for (int i = 0; i < n; i++) {
      k.addKeys(key(4, 'a' + i % 26, i));
    }
    return Predicate.newBuilder().setMatchKeys(k).build();
  }

  private static Item item(ByteString key, ByteString value) {
    return Item.newBuilder().setKey(key).setValue(value).build();
  }

  private static ByteString key(int n, int c) {
    return ByteString.copyFromUtf8(String.valueOf((char) c).repeat(n));
  }

  /** A key of {@code n} characters made distinct by {@code i}. */
  private static ByteString key(int n, int c, int i) {
    return ByteString.copyFromUtf8(String.valueOf((char) c).repeat(n) + i);
  }

  private static ByteString bytes(int n) {
    return ByteString.copyFrom(new byte[n]);
  }
}
