package io.varve.server.kv;

import io.micrometer.core.instrument.MeterRegistry;
import io.varve.api.kv.v1.DeleteItemsRequest;
import io.varve.api.kv.v1.DeleteItemsResponse;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.MutateItemsRequest;
import io.varve.api.kv.v1.MutateItemsResponse;
import io.varve.api.kv.v1.PutItemsRequest;
import io.varve.api.kv.v1.PutItemsResponse;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.ItemStore;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvSlos;
import io.varve.core.kv.KvValidation;
import io.varve.core.namespace.Names;
import io.varve.core.read.PageTokens;
import io.varve.server.config.NamespaceService;
import io.varve.server.controlplane.NamespaceRegistry;
import io.varve.server.request.ReadBudgets;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The KeyValue RPCs. Every field is validated before anything is written; a request on a TimeSeries
 * namespace is refused naming {@code namespace}. PutItems and DeleteItems are here; GetItems
 * ({@link GetItemsHandler}), MutateItems and ScanItems have their own classes; the Handshake of
 * both services is in {@code io.varve.server.handshake}.
 */
public final class KeyValueHandler {

  private final NamespaceRegistry registry;
  private final ItemStore store;
  private final KvLimits limits;
  private final KvChunking chunking;
  private final Clock clock;
  private final MutateItemsHandler mutations;
  private final ScanItemsHandler scans;
  private final GetItemsHandler reads;
  private final PointReadCache cache;

  public KeyValueHandler(
      NamespaceRegistry registry,
      ItemStore store,
      PageTokens tokens,
      KvLimits limits,
      Clock clock,
      MeterRegistry metrics,
      KvChunking chunking) {
    this.registry = registry;
    this.chunking = chunking;
    this.store = store;
    this.limits = limits;
    this.clock = clock;
    this.cache = new PointReadCache(limits.maxCacheBytes(), metrics);
    ReadBudgets budgets =
        new ReadBudgets(
            metrics,
            KvSlos.GET_ITEMS + " and " + KvSlos.SCAN_ITEMS,
            new ReadBudgets.Meters(
                "varve.kv.read.pages.partial",
                "varve.kv.read.fetches.cancelled",
                "CQL fetches of GetItems and ScanItems cancelled in flight or not started because the"
                    + " caller gave up",
                "varve.kv.reads.running",
                "GetItems and ScanItems pages being read now"));
    this.reads =
        new GetItemsHandler(this::namespace, store, tokens, limits, cache, budgets, metrics);
    this.scans = new ScanItemsHandler(this::namespace, store, tokens, limits, budgets, metrics);
    this.mutations = new MutateItemsHandler(this::namespace, store, limits, clock, cache);
  }

  public CompletionStage<MutateItemsResponse> mutate(MutateItemsRequest r) {
    return mutations.mutate(r);
  }

  /** Forgets what this server caches of a deleted namespace. */
  public void forget(String namespace) {
    cache.forget(namespace);
  }

  public CompletionStage<ScanItemsResponse> scan(ScanItemsRequest r) {
    return scans.scan(r);
  }

  public CompletionStage<PutItemsResponse> put(PutItemsRequest r) {
    IdempotencyToken token =
        KvRequests.token(r.hasIdempotencyToken(), r.getIdempotencyToken(), clock.instant(), limits);
    Names.namespace("namespace", r.getNamespace());
    String id = KvValidation.id(r.getId(), limits);
    PutItemsContent content = PutItemsContent.of(r.getItemsList(), limits, chunking);
    List<KvItem> items = content.items();
    boolean whole = content.parts().isEmpty() && content.commits().isEmpty();
    return namespace(r.getNamespace())
        .thenCompose(
            ns ->
                cache.invalidating(
                    ns,
                    id,
                    new ItemPredicate.Keys(content.writtenKeys()),
                    whole
                        ? store.put(ns, id, token, items)
                        : store.put(ns, id, token, items, content.parts(), content.commits())))
        .thenApply(
            v ->
                PutItemsResponse.newBuilder()
                    .setItemCount(items.size() + content.commits().size())
                    .setChunkCount(content.parts().size())
                    .build());
  }

  public CompletionStage<DeleteItemsResponse> delete(DeleteItemsRequest r) {
    IdempotencyToken token =
        KvRequests.token(r.hasIdempotencyToken(), r.getIdempotencyToken(), clock.instant(), limits);
    Names.namespace("namespace", r.getNamespace());
    String id = KvValidation.id(r.getId(), limits);
    KvRequests.predicate(
        r.hasPredicate(), r.getPredicate(), true, io.varve.core.kv.ClusteringOrder.ASC, limits);
    return namespace(r.getNamespace())
        .thenCompose(
            ns -> {
              ItemPredicate predicate =
                  KvRequests.predicate(true, r.getPredicate(), true, ns.order(), limits);
              return cache.invalidating(ns, id, predicate, store.delete(ns, id, token, predicate));
            })
        .thenApply(v -> DeleteItemsResponse.getDefaultInstance());
  }

  public CompletionStage<GetItemsResponse> get(GetItemsRequest r) {
    return reads.get(r);
  }

  private CompletionStage<KvNamespace> namespace(String namespace) {
    return registry
        .get(namespace, NamespaceService.KEY_VALUE)
        .thenApply(e -> e.keyValue().orElseThrow());
  }
}
