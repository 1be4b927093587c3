package io.varve.server.kv;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
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
import io.varve.cassandra.kv.CqlItemMutator;
import io.varve.cassandra.kv.CqlItemReader;
import io.varve.cassandra.kv.CqlItemWriter;
import io.varve.cassandra.kv.ReadBudget;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.FetchSizes;
import io.varve.core.kv.IdempotencyToken;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvPageToken;
import io.varve.core.kv.KvSlos;
import io.varve.core.kv.KvValidation;
import io.varve.core.namespace.Names;
import io.varve.core.read.PageTokens;
import io.varve.server.config.NamespaceService;
import io.varve.server.controlplane.NamespaceRegistry;
import java.time.Clock;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The KeyValue RPCs. Every field is validated before anything is written; a request on a TimeSeries
 * namespace is refused naming {@code namespace}. GetItems pages by bytes with adaptive fetch sizes
 * ({@link FetchSizes}) and records its read amplification (rows fetched ÷ rows returned); a page
 * stops early, {@code partial}, rather than exceed the namespace's GetItems latency max or the
 * caller's deadline ({@link ReadBudgets}).
 */
public final class KeyValueHandler {

  private static final String PAGE_TOKEN = "page_token";

  private final NamespaceRegistry registry;
  private final CqlItemWriter writer;
  private final CqlItemReader reader;
  private final PageTokens tokens;
  private final KvLimits limits;
  private final KvChunking chunking;
  private final Clock clock;
  private final FetchSizes fetchSizes = new FetchSizes();
  private final MutateItemsHandler mutations;
  private final ScanItemsHandler scans;
  private final DistributionSummary amplification;
  private final DistributionSummary fetchBytes;
  private final Counter fetched;
  private final Counter planned;
  private final Counter returned;
  private final ReadBudgets budgets;
  private final PointReadCache cache;

  public KeyValueHandler(
      NamespaceRegistry registry,
      CqlItemWriter writer,
      CqlItemReader reader,
      PageTokens tokens,
      KvLimits limits,
      Clock clock,
      MeterRegistry metrics,
      KvChunking chunking) {
    this.registry = registry;
    this.chunking = chunking;
    this.writer = writer;
    this.reader = reader;
    this.tokens = tokens;
    this.limits = limits;
    this.clock = clock;
    this.scans = new ScanItemsHandler(this::namespace, reader.scanner(), tokens, limits, metrics);
    this.amplification =
        DistributionSummary.builder("varve.kv.read.amplification")
            .description(
                "Rows fetched in the shape returned (with values when values are returned) per item returned,"
                    + " per GetItems page; rows read only to plan a page are not counted")
            .register(metrics);
    this.fetchBytes =
        DistributionSummary.builder("varve.kv.read.fetch.bytes")
            .baseUnit("bytes")
            .description(
                "Bytes of the largest CQL fetch of a GetItems page (bounded by kv.limits.maxFetchBytes)")
            .register(metrics);
    this.fetched =
        Counter.builder("varve.kv.read.rows.fetched")
            .description("Rows GetItems fetched in the shape returned")
            .register(metrics);
    this.planned =
        Counter.builder("varve.kv.read.rows.planned")
            .description("Rows of keys and sizes GetItems read to plan which rows fit a page")
            .register(metrics);
    this.returned =
        Counter.builder("varve.kv.read.items.returned")
            .description("Items GetItems returned")
            .register(metrics);
    this.budgets = new ReadBudgets(metrics);
    this.cache = new PointReadCache(limits.maxCacheBytes(), metrics);
    this.mutations =
        new MutateItemsHandler(this::namespace, new CqlItemMutator(writer), limits, clock, cache);
  }

  public CompletionStage<MutateItemsResponse> mutate(MutateItemsRequest r) {
    return mutations.mutate(r);
  }

  public CompletionStage<ScanItemsResponse> scan(ScanItemsRequest r) {
    return scans.scan(r);
  }

  public CompletionStage<PutItemsResponse> put(PutItemsRequest r) {
    IdempotencyToken token =
        KvRequests.token(r.hasIdempotencyToken(), r.getIdempotencyToken(), clock.instant(), limits);
    Names.namespace("namespace", r.getNamespace());
    String id = KvValidation.id(r.getId(), limits);
    List<KvItem> items = KvRequests.items(r.getItemsList(), limits, chunking);
    return namespace(r.getNamespace())
        .thenCompose(
            ns ->
                cache.invalidating(
                    ns,
                    id,
                    new ItemPredicate.Keys(items.stream().map(KvItem::key).toList()),
                    writer.put(ns, id, token, items)))
        .thenApply(v -> PutItemsResponse.newBuilder().setItemCount(items.size()).build());
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
              return cache.invalidating(ns, id, predicate, writer.delete(ns, id, token, predicate));
            })
        .thenApply(v -> DeleteItemsResponse.getDefaultInstance());
  }

  public CompletionStage<GetItemsResponse> get(GetItemsRequest r) {
    Names.namespace("namespace", r.getNamespace());
    String id = KvValidation.id(r.getId(), limits);
    KvRequests.predicate(
        r.hasPredicate(), r.getPredicate(), false, io.varve.core.kv.ClusteringOrder.ASC, limits);
    int pageSize = KvRequests.pageSize(r.getSelection(), limits);
    boolean values = KvRequests.values(r.getSelection());
    boolean raw = KvRequests.acceptsCompression(r.getSignalsMap());
    byte[] fingerprint =
        PageTokens.fingerprint(
            r.getNamespace(),
            id,
            Base64.getEncoder().encodeToString(r.getPredicate().toByteArray()),
            Integer.toString(r.getSelection().getItemLimit()),
            Boolean.toString(values));
    KvPageToken position =
        r.getPageToken().isEmpty()
            ? null
            : KvPageToken.decode(
                tokens.open(fingerprint, KvPageToken.KIND, r.getPageToken(), PAGE_TOKEN),
                PAGE_TOKEN);
    return namespace(r.getNamespace())
        .thenCompose(
            ns -> {
              ItemPredicate predicate =
                  KvRequests.predicate(
                      r.hasPredicate(), r.getPredicate(), false, ns.order(), limits);
              long soFar = 0;
              long itemBytes = fetchSizes.estimate(ns.namespace());
              if (position != null) {
                predicate = predicate.after(position.lastKey(), ns.order());
                soFar = position.returnedSoFar();
                itemBytes =
                    position.averageItemBytes() > 0 ? position.averageItemBytes() : itemBytes;
              }
              long remaining =
                  r.getSelection().getItemLimit() == 0
                      ? Long.MAX_VALUE
                      : r.getSelection().getItemLimit() - soFar;
              long before = soFar;
              if (predicate instanceof ItemPredicate.Keys k && k.keys().isEmpty()) {
                return CompletableFuture.completedFuture(GetItemsResponse.getDefaultInstance());
              }
              boolean cached =
                  position == null
                      && r.getSelection().getItemLimit() == 0
                      && !raw
                      && cache.serves(ns, predicate, values);
              if (cached) {
                Optional<List<KvItem>> hit = cache.lookup(ns, id, predicate, pageSize);
                if (hit.isPresent()) {
                  GetItemsResponse.Builder response = GetItemsResponse.newBuilder();
                  hit.get().forEach(item -> response.addItems(KvRequests.item(item, true)));
                  return CompletableFuture.completedFuture(response.build());
                }
              }
              long version = cache.version(ns.namespace(), id);
              ItemPredicate read = predicate;
              ReadBudget budget = budgets.start(ns.slos().latency(KvSlos.GET_ITEMS));
              return budgets
                  .finish(
                      budget,
                      reader.read(
                          ns,
                          id,
                          predicate,
                          values,
                          FetchSizes.of(pageSize, itemBytes, remaining),
                          new BytePage(pageSize, remaining),
                          raw,
                          budget))
                  .thenApply(
                      page -> {
                        if (cached && !page.more()) {
                          cache.fill(ns, id, read, page.items(), version);
                        }
                        return page;
                      })
                  .thenApply(
                      page ->
                          respond(ns, page, values, fingerprint, before)
                              .setPartial(
                                  budget.cutShort() && page.more() && !page.items().isEmpty())
                              .build());
            });
  }

  private GetItemsResponse.Builder respond(
      KvNamespace ns, CqlItemReader.Page page, boolean values, byte[] fingerprint, long before) {
    fetched.increment(page.rowsFetched());
    planned.increment(page.rowsPlanned());
    fetchBytes.record(page.largestFetchBytes());
    returned.increment(page.items().size());
    if (!page.items().isEmpty()) {
      amplification.record((double) page.rowsFetched() / page.items().size());
      fetchSizes.observe(ns.namespace(), page.items().size(), page.bytes());
    }
    GetItemsResponse.Builder response = GetItemsResponse.newBuilder();
    page.items().forEach(item -> response.addItems(KvRequests.item(item, values)));
    if (page.more() && !page.items().isEmpty()) {
      KvItem last = page.items().get(page.items().size() - 1);
      long average = Math.max(1, page.bytes() / page.items().size());
      response.setNextPageToken(
          tokens.seal(
              fingerprint,
              KvPageToken.KIND,
              new KvPageToken(last.key(), before + page.items().size(), average).encode()));
    }
    return response;
  }

  private CompletionStage<KvNamespace> namespace(String namespace) {
    return registry
        .get(namespace, NamespaceService.KEY_VALUE)
        .thenApply(e -> e.keyValue().orElseThrow());
  }
}
