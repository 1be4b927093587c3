package io.varve.verify.fuzz;

import static io.varve.verify.fuzz.KvGrammar.MIB;

import com.google.protobuf.ByteString;
import com.google.protobuf.Message;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.DeleteOperation;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.IdempotencyToken;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.MatchAll;
import io.varve.api.kv.v1.MatchKeys;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.Mutation;
import io.varve.api.kv.v1.Predicate;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutOperation;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;

/**
 * KeyValue sequences, on records only they use ({@link FuzzWorld#sequenceRecordIds}): an item
 * overwritten with values that move it between inline and chunked storage; deletes by key, range
 * and record followed by a write older than the delete; a MutateItems mixing puts and deletes; and
 * requests of one service addressed to a namespace of the other, which must be refused with a 4xx
 * ({@link #CROSS_SERVICE}). Their tokens are generated a millisecond apart in the order the steps
 * are sent, unless a step says otherwise.
 */
final class KvSequences {

  /** The description prefix of the steps that must be refused with a 4xx. */
  static final String CROSS_SERVICE = "cross-service: ";

  /** One request of a sequence. */
  record Step(String rpc, String description, Message request) {}

  private final FuzzWorld world;
  private final KvGrammar kv;
  private final ApiGrammar timeSeries;

  KvSequences(FuzzWorld world, KvGrammar kv, ApiGrammar timeSeries) {
    this.world = world;
    this.kv = kv;
    this.timeSeries = timeSeries;
  }

  /** Put one item, overwrite it chunked, inline, chunked, inline, reading it after each. */
  Arbitrary<List<Step>> overwrite() {
    return Combinators.combine(
            Arbitraries.of(world.kvNamespaces()),
            Arbitraries.of(world.sequenceRecordIds()),
            Arbitraries.of(world.itemKeys()).map(ByteString::copyFrom),
            ApiGrammar.itemValues(),
            Arbitraries.of(MIB + 1, MIB + 4097))
        .as(
            (ns, id, key, small, chunked) -> {
              Instant base = kv.now();
              List<Step> steps = new ArrayList<>();
              ByteString[] values = {
                small, zeros(chunked), ByteString.copyFromUtf8("inline"), zeros(chunked + 3), small
              };
              for (int i = 0; i < values.length; i++) {
                steps.add(
                    new Step(
                        "PutItems",
                        "overwrite sequence: value of " + values[i].size() + " bytes",
                        put(
                            ns,
                            id,
                            KvGrammar.token(base, i, kv.nonce()),
                            Item.newBuilder().setKey(key).setValue(values[i]).build())));
                steps.add(
                    new Step(
                        "GetItems",
                        "overwrite sequence: read",
                        get(
                            ns,
                            id,
                            Predicate.newBuilder()
                                .setMatchKeys(MatchKeys.newBuilder().addKeys(key))
                                .build())));
              }
              return steps;
            });
  }

  /**
   * Put five items, delete some by keys, range or the whole record, read; then a put generated
   * before the delete (it must stay deleted where the delete reached) and one after it, and read.
   */
  Arbitrary<List<Step>> delete() {
    return Combinators.combine(
            Arbitraries.of(world.kvNamespaces()),
            Arbitraries.of(world.sequenceRecordIds()),
            deletePredicates())
        .as(
            (ns, id, predicate) -> {
              Instant base = kv.now();
              List<Step> steps = new ArrayList<>();
              List<Item> items = new ArrayList<>();
              for (byte[] k : world.itemKeys().subList(0, 5)) {
                items.add(
                    Item.newBuilder()
                        .setKey(ByteString.copyFrom(k))
                        .setValue(ByteString.copyFromUtf8("d" + k.length))
                        .build());
              }
              steps.add(
                  new Step(
                      "PutItems",
                      "delete sequence: put",
                      put(
                          ns,
                          id,
                          KvGrammar.token(base, 0, kv.nonce()),
                          items.toArray(Item[]::new))));
              steps.add(
                  new Step(
                      "DeleteItems",
                      "delete sequence: delete " + predicate.getMatchCase(),
                      DeleteItemsRequest.newBuilder()
                          .setIdempotencyToken(KvGrammar.token(base, 2, kv.nonce()))
                          .setNamespace(ns)
                          .setId(id)
                          .setPredicate(predicate)
                          .build()));
              steps.add(new Step("GetItems", "delete sequence: read", all(ns, id)));
              Item older =
                  items.get(3).toBuilder().setValue(ByteString.copyFromUtf8("older")).build();
              Item newer =
                  items.get(1).toBuilder().setValue(ByteString.copyFromUtf8("newer")).build();
              steps.add(
                  new Step(
                      "PutItems",
                      "delete sequence: put generated before the delete",
                      put(ns, id, KvGrammar.token(base, 1, kv.nonce()), older)));
              steps.add(
                  new Step(
                      "PutItems",
                      "delete sequence: put after the delete",
                      put(ns, id, KvGrammar.token(base, 3, kv.nonce()), newer)));
              steps.add(new Step("GetItems", "delete sequence: read", all(ns, id)));
              return steps;
            });
  }

  /** A put to one record, then one MutateItems putting to a second and deleting from the first. */
  Arbitrary<List<Step>> mutate() {
    return Combinators.combine(
            Arbitraries.of(world.kvNamespaces()), kv.items(), kv.items(), deletePredicates())
        .as(
            (ns, first, second, predicate) -> {
              String a = world.sequenceRecordIds().get(2);
              String b = world.sequenceRecordIds().get(3);
              Instant base = kv.now();
              List<Step> steps = new ArrayList<>();
              steps.add(
                  new Step(
                      "PutItems",
                      "mutate sequence: put",
                      put(
                          ns,
                          a,
                          KvGrammar.token(base, 0, kv.nonce()),
                          first.toArray(Item[]::new))));
              steps.add(
                  new Step(
                      "MutateItems",
                      "mutate sequence: put and delete",
                      MutateItemsRequest.newBuilder()
                          .setIdempotencyToken(KvGrammar.token(base, 1, kv.nonce()))
                          .setNamespace(ns)
                          .addMutations(
                              Mutation.newBuilder()
                                  .setId(b)
                                  .setPut(PutOperation.newBuilder().addAllItems(second)))
                          .addMutations(
                              Mutation.newBuilder()
                                  .setId(a)
                                  .setDelete(DeleteOperation.newBuilder().setPredicate(predicate)))
                          .build()));
              steps.add(new Step("GetItems", "mutate sequence: read", all(ns, a)));
              steps.add(new Step("GetItems", "mutate sequence: read", all(ns, b)));
              return steps;
            });
  }

  /** Requests of each service addressed to a namespace of the other: each a 4xx, never a 5xx. */
  Arbitrary<List<Step>> crossService() {
    return Combinators.combine(
            Arbitraries.of(world.kvNamespaces()),
            Arbitraries.of(world.dataNamespaces()),
            kv.items(),
            timeSeries.request("WriteEventRecordsSync"))
        .as(
            (kvNs, tsNs, items, write) -> {
              WriteEventRecordsRequest events =
                  ((WriteEventRecordsRequest) write).toBuilder().setNamespace(kvNs).build();
              Instant base = kv.now();
              List<Step> steps = new ArrayList<>();
              steps.add(
                  new Step(
                      "PutItems",
                      CROSS_SERVICE + "PutItems on a TimeSeries namespace",
                      put(
                          tsNs,
                          "r0",
                          KvGrammar.token(base, 0, kv.nonce()),
                          items.toArray(Item[]::new))));
              steps.add(
                  new Step(
                      "GetItems",
                      CROSS_SERVICE + "GetItems on a TimeSeries namespace",
                      all(tsNs, "r0")));
              steps.add(
                  new Step(
                      "WriteEventRecordsSync",
                      CROSS_SERVICE + "WriteEventRecordsSync on a KeyValue namespace",
                      events));
              steps.add(
                  new Step(
                      "WriteEventRecords",
                      CROSS_SERVICE + "WriteEventRecords on a KeyValue namespace",
                      events));
              steps.add(
                  new Step(
                      "ReadEventRecords",
                      CROSS_SERVICE + "ReadEventRecords on a KeyValue namespace",
                      ReadEventRecordsRequest.newBuilder()
                          .setNamespace(kvNs)
                          .setTimeSeriesId("s0")
                          .setTimeInterval(HostileSizes.interval(world.readFrom(), world.readTo()))
                          .build()));
              steps.add(
                  new Step(
                      "UpdateNamespace",
                      CROSS_SERVICE + "UpdateNamespace of a TimeSeries namespace to KEY_VALUE",
                      UpdateNamespaceRequest.newBuilder()
                          .setNamespace(tsNs)
                          .setService("KEY_VALUE")
                          .addAllPersistenceConfiguration(
                              KvGrammar.initialNamespace(world, tsNs)
                                  .getPersistenceConfigurationList())
                          .build()));
              return steps;
            });
  }

  /** Predicates a delete takes: one of the three kinds, set. */
  private Arbitrary<Predicate> deletePredicates() {
    return kv.predicates()
        .filter(p -> p.isPresent() && p.get().getMatchCase() != Predicate.MatchCase.MATCH_NOT_SET)
        .map(java.util.Optional::get);
  }

  private static PutItemsRequest put(String ns, String id, IdempotencyToken token, Item... items) {
    return PutItemsRequest.newBuilder()
        .setIdempotencyToken(token)
        .setNamespace(ns)
        .setId(id)
        .addAllItems(List.of(items))
        .build();
  }

  private static GetItemsRequest get(String ns, String id, Predicate p) {
    return GetItemsRequest.newBuilder().setNamespace(ns).setId(id).setPredicate(p).build();
  }

  private static GetItemsRequest all(String ns, String id) {
    return get(ns, id, Predicate.newBuilder().setMatchAll(MatchAll.getDefaultInstance()).build());
  }

  private static ByteString zeros(int n) {
    return ByteString.copyFrom(new byte[n]);
  }
}
