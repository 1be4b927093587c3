package io.varve.server.kv;

import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.MutateItemsResponse;
import io.varve.api.kv.v1.Mutation;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.ItemStore;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvMutation;
import io.varve.core.kv.KvMutations;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvValidation;
import io.varve.core.kv.RecordMutation;
import io.varve.core.namespace.Names;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * MutateItems: puts and deletes over one or more records under one idempotency token. Every field
 * of every mutation is validated, and the mutations checked together ({@link KvMutations}: bounds,
 * no overlap within a record), before anything is written: an invalid last mutation writes nothing.
 * Then each record is one single-partition batch ({@link ItemStore#mutate}).
 *
 * <p>One token per request, not per mutation: the token identifies what a client retries or hedges,
 * and a client retries a call, not part of one. All mutations are ordered against other requests by
 * its generation time exactly as PutItems and DeleteItems are (it is every cell's write time).
 */
final class MutateItemsHandler {

  private final Function<String, CompletionStage<KvNamespace>> namespaces;
  private final ItemStore store;
  private final KvLimits limits;
  private final Clock clock;
  private final PointReadCache cache;

  MutateItemsHandler(
      Function<String, CompletionStage<KvNamespace>> namespaces,
      ItemStore store,
      KvLimits limits,
      Clock clock,
      PointReadCache cache) {
    this.cache = cache;
    this.namespaces = namespaces;
    this.store = store;
    this.limits = limits;
    this.clock = clock;
  }

  CompletionStage<MutateItemsResponse> mutate(MutateItemsRequest r) {
    IdempotencyToken token =
        KvRequests.token(r.hasIdempotencyToken(), r.getIdempotencyToken(), clock.instant(), limits);
    Names.namespace("namespace", r.getNamespace());
    if (r.getMutationsCount() > limits.maxItemsPerRequest()) {
      // before mapping each one: the count bounds the work of validating them
      throw new InvalidFieldException(
          "mutations", r.getMutationsCount() + " mutations", "1.." + limits.maxItemsPerRequest());
    }
    List<KvMutation> mutations = new ArrayList<>();
    for (int j = 0; j < r.getMutationsCount(); j++) {
      mutations.add(mutation(r.getMutations(j), "mutations[" + j + "]."));
    }
    List<RecordMutation> records = KvMutations.records(mutations, limits);
    return namespaces
        .apply(r.getNamespace())
        .thenCompose(
            ns ->
                store
                    .mutate(ns, token, records)
                    // every record touched, whether its batch applied or not (it may have)
                    .whenComplete(
                        (v, e) ->
                            records.forEach(
                                record ->
                                    cache.invalidate(
                                        ns.namespace(), record.id(), new ItemPredicate.All()))))
        .thenApply(
            v ->
                MutateItemsResponse.newBuilder()
                    .setMutationCount(mutations.size())
                    .setRecordCount(records.size())
                    .build());
  }

  private KvMutation mutation(Mutation m, String path) {
    String id = KvMutations.within(path, () -> KvValidation.id(m.getId(), limits));
    return switch (m.getOperationCase()) {
      case PUT ->
          new KvMutation.Put(
              id,
              KvMutations.within(
                  path + "put.", () -> KvRequests.items(m.getPut().getItemsList(), limits)));
      case DELETE ->
          new KvMutation.Delete(
              id,
              KvMutations.within(
                  path + "delete.",
                  () ->
                      KvRequests.predicate(
                          m.getDelete().hasPredicate(),
                          m.getDelete().getPredicate(),
                          true,
                          ClusteringOrder.ASC,
                          limits)));
      case OPERATION_NOT_SET ->
          throw InvalidFieldException.of(
              path.substring(0, path.length() - 1), "no operation (expected: put or delete)");
    };
  }
}
