package io.varve.verify.fuzz;

import com.google.protobuf.ByteString;
import com.google.protobuf.Duration;
import com.google.protobuf.Message;
import com.google.protobuf.Struct;
import com.google.protobuf.Value;
import io.varve.api.common.v1.ClientSignals;
import io.varve.api.common.v1.HandshakeRequest;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.DeleteOperation;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ItemMetadata;
import io.varve.api.kv.v1.MatchAll;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.MatchRange;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutOperation;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.Selection;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.StorageConfig;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.function.Supplier;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Well-formed requests of every RPC of the KeyValue service, on the run's KeyValue namespaces (ASC,
 * DESC, cached) and now and then on a TimeSeries one. Idempotency tokens take their generation time
 * from the clock when the request is drawn (the server refuses tokens more than ten minutes old),
 * offset in and out of the documented drift bounds; a reproduction of a case therefore differs from
 * the original in that time only.
 */
final class KvGrammar {

  static final int MIB = 1 << 20;

  private final FuzzWorld world;
  private final Supplier<Instant> clock;
  private long nonces;

  /**
   * @param clock when tokens are generated: the wall clock when requests are sent, a fixed time
   *     when a plan is only drawn (to show a case, to compare plans)
   */
  KvGrammar(FuzzWorld world, Supplier<Instant> clock) {
    this.world = world;
    this.clock = clock;
  }

  /** Well-formed requests of one KeyValue RPC. */
  Arbitrary<Message> request(String rpc) {
    return switch (rpc) {
      case "PutItems" ->
          Combinators.combine(tokens(), namespaces(), ids(), items())
              .as(
                  (t, ns, id, items) ->
                      (Message)
                          PutItemsRequest.newBuilder()
                              .setIdempotencyToken(t)
                              .setNamespace(ns)
                              .setId(id)
                              .addAllItems(items)
                              .build());
      case "GetItems" ->
          Combinators.combine(
                  namespaces(), ids(), predicates(), selections(), signals(), pageTokens())
              .as(
                  (ns, id, p, s, signals, page) -> {
                    GetItemsRequest.Builder b =
                        GetItemsRequest.newBuilder().setNamespace(ns).setId(id).setPageToken(page);
                    p.ifPresent(b::setPredicate);
                    s.ifPresent(b::setSelection);
                    signals.ifPresent(v -> b.putSignals("compression", v));
                    return b.build();
                  });
      case "DeleteItems" ->
          Combinators.combine(tokens(), namespaces(), ids(), predicates())
              .as(
                  (t, ns, id, p) -> {
                    DeleteItemsRequest.Builder b =
                        DeleteItemsRequest.newBuilder()
                            .setIdempotencyToken(t)
                            .setNamespace(ns)
                            .setId(id);
                    p.ifPresent(b::setPredicate);
                    return b.build();
                  });
      case "MutateItems" ->
          Combinators.combine(tokens(), namespaces(), mutation().list().ofMinSize(1).ofMaxSize(4))
              .as(
                  (t, ns, list) ->
                      MutateItemsRequest.newBuilder()
                          .setIdempotencyToken(t)
                          .setNamespace(ns)
                          .addAllMutations(list)
                          .build());
      case "ScanItems" ->
          Combinators.combine(
                  namespaces(),
                  Arbitraries.of(-1, 0, 0, 0, 1, 3, 4095, 4096).injectNull(0.3),
                  Arbitraries.of(0, 1, 1, 4, 4096, 4097).injectNull(0.3),
                  selections(),
                  pageTokens())
              .as(
                  (ns, segment, total, s, page) -> {
                    ScanItemsRequest.Builder b =
                        ScanItemsRequest.newBuilder().setNamespace(ns).setPageToken(page);
                    if (segment != null) {
                      b.setSegment(segment);
                    }
                    if (total != null) {
                      b.setTotalSegments(total);
                    }
                    s.ifPresent(b::setSelection);
                    return b.build();
                  });
      case "Handshake" ->
          Combinators.combine(namespaces(), Arbitraries.of(true, false))
              .as(
                  (ns, client) -> {
                    HandshakeRequest.Builder b = HandshakeRequest.newBuilder().setNamespace(ns);
                    if (client) {
                      b.setClient(
                          ClientSignals.newBuilder()
                              .setName("varve-fuzz")
                              .setVersion("1")
                              .addCapabilities("compression:zstd")
                              .addCapabilities("partial_returns"));
                    }
                    return b.build();
                  });
      default -> throw new IllegalArgumentException(rpc);
    };
  }

  /** The CreateNamespace of one of the run's KeyValue namespaces. */
  static CreateNamespaceRequest initialNamespace(FuzzWorld world, String ns) {
    StorageConfig.Builder config = StorageConfig.newBuilder().setConsistencyTarget("STRONG");
    if (ns.equals(world.kvDescNamespace())) {
      config.setClusteringOrder("DESC");
    }
    CreateNamespaceRequest.Builder b =
        CreateNamespaceRequest.newBuilder()
            .setNamespace(ns)
            .setService("KEY_VALUE")
            .addPersistenceConfiguration(
                PersistenceConfiguration.newBuilder()
                    .setId("PRIMARY_STORAGE")
                    .setPhysicalStorage(
                        PhysicalStorage.newBuilder()
                            .setType("CASSANDRA")
                            .setCluster("local")
                            .setDataset(ns)
                            .setConfig(config)));
    if (ns.equals(world.kvCachedNamespace())) {
      b.addPersistenceConfiguration(
          PersistenceConfiguration.newBuilder()
              .setId("CACHE")
              .setPhysicalStorage(PhysicalStorage.newBuilder().setType("CACHE"))
              .setConfig(
                  StorageConfig.newBuilder()
                      .setDefaultCacheTtl(Duration.newBuilder().setSeconds(180))));
    }
    return b.build();
  }

  /** A token generated now plus {@code offsetMillis}, with the nonce {@code nonce}. */
  IdempotencyToken token(long offsetMillis, String nonce) {
    return token(now(), offsetMillis, nonce);
  }

  /**
   * A nonce no other token of the run has: tokens must be unique (a chunked value's chunks are
   * keyed by them), and counting keeps a plan reproducible.
   */
  String nonce() {
    return "fz" + Long.toString(++nonces, 36);
  }

  /** A nonce of exactly {@code n} characters. */
  String nonce(int n) {
    String unique = nonce();
    return "n".repeat(Math.max(0, n - unique.length())) + unique;
  }

  /** The time tokens are generated at, to the microsecond the server keeps. */
  Instant now() {
    return clock.get().truncatedTo(ChronoUnit.MICROS);
  }

  /** A token generated at {@code base} plus {@code offsetMillis}. */
  static IdempotencyToken token(Instant base, long offsetMillis, String nonce) {
    Instant t = base.plusMillis(offsetMillis);
    return IdempotencyToken.newBuilder()
        .setGenerationTime(ApiGrammar.timestamp(t))
        .setToken(nonce)
        .build();
  }

  /**
   * Tokens: mostly now, some older or ahead within the drift bounds (ten minutes before, ten
   * seconds after), some just outside them, a few without a time or a nonce or with a nonce at and
   * over its 128 characters.
   */
  Arbitrary<IdempotencyToken> tokens() {
    Arbitrary<String> nonces = Arbitraries.just(0).map(x -> nonce());
    Arbitrary<Long> offsets =
        Arbitraries.frequencyOf(
            Tuple.of(20, Arbitraries.just(0L)),
            Tuple.of(4, Arbitraries.of(-1L, -1000L, -120_000L)),
            Tuple.of(2, Arbitraries.of(-570_000L, 5_000L)),
            Tuple.of(1, Arbitraries.of(-660_000L, 30_000L)));
    return Arbitraries.frequencyOf(
        Tuple.of(30, Combinators.combine(offsets, nonces).as((off, nonce) -> token(off, nonce))),
        Tuple.of(
            1,
            Arbitraries.of(0, 1, 2)
                .map(
                    kind ->
                        switch (kind) {
                          case 0 -> IdempotencyToken.getDefaultInstance();
                          case 1 -> IdempotencyToken.newBuilder().setToken("no-time").build();
                          default -> token(0, "").toBuilder().clearToken().build();
                        })),
        Tuple.of(1, Arbitraries.of(128, 129).map(n -> token(0, nonce(n)))));
  }

  Arbitrary<String> namespaces() {
    return Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.of(world.kvNamespaces())),
        Tuple.of(1, Arbitraries.of(world.dataNamespaces())),
        Tuple.of(1, Arbitraries.just(world.prefix() + "absent")));
  }

  private Arbitrary<String> ids() {
    return Arbitraries.frequencyOf(
        Tuple.of(10, Arbitraries.of(world.recordIds().subList(0, 3))),
        Tuple.of(2, Arbitraries.of(world.recordIds().subList(3, 5))),
        Tuple.of(1, Arbitraries.of("", "x".repeat(1025))));
  }

  private Arbitrary<ByteString> keys() {
    return Arbitraries.of(world.itemKeys()).map(ByteString::copyFrom);
  }

  /**
   * Values: the small ones of the TimeSeries grammar, and now and then one at the chunk threshold,
   * just over it (stored in chunks) or of a few MiB.
   */
  static Arbitrary<ByteString> values() {
    return Arbitraries.frequencyOf(
        Tuple.of(120, ApiGrammar.itemValues()),
        Tuple.of(
            1,
            Arbitraries.of(MIB, MIB + 1, 3 * MIB + 5).map(n -> ByteString.copyFrom(new byte[n]))));
  }

  private Arbitrary<Item> item() {
    Arbitrary<ItemMetadata> metadata =
        Arbitraries.frequencyOf(
            Tuple.of(40, Arbitraries.just(null)),
            Tuple.of(
                1,
                Arbitraries.of(
                    ItemMetadata.newBuilder().setCompression("zstd").build(),
                    ItemMetadata.newBuilder().setCompression("gzip").build(),
                    ItemMetadata.newBuilder().setValueSize(3).build())));
    return Combinators.combine(keys(), values(), metadata)
        .as(
            (k, v, m) -> {
              Item.Builder b = Item.newBuilder().setKey(k).setValue(v);
              if (m != null) {
                b.setMetadata(m);
              }
              return b.build();
            });
  }

  /** 1..4 items of distinct keys (duplicates are a refusal of their own, left to mutations). */
  Arbitrary<List<Item>> items() {
    return item()
        .list()
        .ofMinSize(1)
        .ofMaxSize(4)
        .map(list -> ApiGrammar.distinctBy(list, Item::getKey));
  }

  private Arbitrary<Mutation> mutation() {
    return Combinators.combine(
            Arbitraries.of(world.recordIds().subList(0, 4)),
            Arbitraries.of(true, false),
            items(),
            predicates())
        .as(
            (id, put, items, p) -> {
              Mutation.Builder b = Mutation.newBuilder().setId(id);
              if (put) {
                b.setPut(PutOperation.newBuilder().addAllItems(items));
              } else {
                b.setDelete(
                    p.map(x -> DeleteOperation.newBuilder().setPredicate(x).build())
                        .orElse(DeleteOperation.getDefaultInstance()));
              }
              return b.build();
            });
  }

  /**
   * Predicates of every kind, absent now and then: all items, listed keys (duplicates included),
   * ranges with any bounds (so inverted ones too), and an empty predicate.
   */
  Arbitrary<java.util.Optional<Predicate>> predicates() {
    Arbitrary<Predicate> all =
        Arbitraries.just(Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build());
    Arbitrary<Predicate> listed =
        keys()
            .list()
            .ofMinSize(1)
            .ofMaxSize(4)
            .map(
                k ->
                    Predicate.newBuilder()
                        .setMatchKeys(MatchKeys.newBuilder().addAllKeys(k))
                        .build());
    Arbitrary<Predicate> range =
        Combinators.combine(
                keys().injectNull(0.2),
                keys().injectNull(0.2),
                Arbitraries.of(true, false).injectNull(0.5),
                Arbitraries.of(true, false).injectNull(0.5))
            .as(
                (s, e, si, ei) -> {
                  MatchRange.Builder r = MatchRange.newBuilder();
                  if (s != null) {
                    r.setStart(s);
                  }
                  if (e != null) {
                    r.setEnd(e);
                  }
                  if (si != null) {
                    r.setStartInclusive(si);
                  }
                  if (ei != null) {
                    r.setEndInclusive(ei);
                  }
                  return Predicate.newBuilder().setMatchRange(r).build();
                });
    return Arbitraries.frequencyOf(
            Tuple.of(4, all),
            Tuple.of(6, listed),
            Tuple.of(6, range),
            Tuple.of(1, Arbitraries.just(Predicate.getDefaultInstance())))
        .map(java.util.Optional::of)
        .injectNull(0.08)
        .map(p -> p == null ? java.util.Optional.<Predicate>empty() : p);
  }

  /** Selections: page sizes at and over their bounds, item limits, values or not; or none. */
  Arbitrary<java.util.Optional<Selection>> selections() {
    return Combinators.combine(
            Arbitraries.of(0, 0, 1, 100, 4096, 2 * MIB, 16 * MIB, 16 * MIB + 1, -1),
            Arbitraries.of(0, 0, 0, 1, 3, -1),
            Arbitraries.of(true, false).injectNull(0.6))
        .as(
            (size, limit, values) -> {
              Selection.Builder s =
                  Selection.newBuilder().setPageSizeBytes(size).setItemLimit(limit);
              if (values != null) {
                s.setIncludeValues(values);
              }
              return s.build();
            })
        .injectNull(0.3)
        .map(java.util.Optional::ofNullable);
  }

  private Arbitrary<java.util.Optional<Struct>> signals() {
    Struct zstd =
        Struct.newBuilder()
            .putFields("zstd", Value.newBuilder().setBoolValue(true).build())
            .build();
    return Arbitraries.frequencyOf(
        Tuple.of(6, Arbitraries.just(java.util.Optional.<Struct>empty())),
        Tuple.of(2, Arbitraries.just(java.util.Optional.of(zstd))),
        Tuple.of(1, Arbitraries.just(java.util.Optional.of(Struct.getDefaultInstance()))));
  }

  /**
   * Stands for the last page token the server gave any request of the run: over JSON, {@link
   * ApiFuzzer} puts it in its place when it sends the case (the one part of a case that depends on
   * earlier answers).
   */
  static final String ANOTHER_REQUESTS_TOKEN = "@fuzz:another-request's-page-token@";

  /**
   * No page token mostly; otherwise a token of another request, or tokens no request was given:
   * garbage, long, base64.
   */
  private static Arbitrary<String> pageTokens() {
    return Arbitraries.frequencyOf(
        Tuple.of(12, Arbitraries.just("")),
        Tuple.of(1, Arbitraries.just(ANOTHER_REQUESTS_TOKEN)),
        Tuple.of(
            1,
            Arbitraries.of(
                "x",
                "AAAA",
                "eyJpZCI6InIwIn0",
                "not base64 \u2603",
                "A".repeat(10_000),
                "v1.AAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA")));
  }
}
