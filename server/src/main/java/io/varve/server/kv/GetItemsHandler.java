package io.varve.server.kv;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.DistributionSummary;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.api.kv.v1.GetItemsRequest;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.FetchSizes;
import io.varve.core.kv.ItemPage;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.ItemStore;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvPageToken;
import io.varve.core.kv.KvSlos;
import io.varve.core.kv.KvValidation;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ResponseBound;
import io.varve.core.kv.ValueParts;
import io.varve.core.namespace.Names;
import io.varve.core.read.PageTokens;
import io.varve.core.read.ResponseMemory;
import io.varve.server.admission.ResponseAdmission;
import io.varve.server.request.ReadBudgets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * GetItems: one page of a record's items, bounded in bytes, with fetch sizes adapted to the item
 * sizes seen ({@link FetchSizes}: the namespace's running estimate for a first page, the page
 * token's average after it). Records read amplification (rows Cassandra sent ÷ items returned). A
 * page stops early, {@code partial}, rather than exceed the namespace's GetItems latency max or the
 * caller's deadline ({@link ReadBudgets}). First pages of point reads may come from the {@link
 * PointReadCache}.
 *
 * <p>No page exceeds the largest message the client takes ({@link ReadSignals}). A value that fits
 * no message comes in parts to a client that signalled {@code chunking}, one part per page ({@link
 * ItemParts}), each from the version the first part pinned (the page token carries it); a client
 * that did not is refused FAILED_PRECONDITION, told what to signal.
 */
final class GetItemsHandler {

  private static final String PAGE_TOKEN = "page_token";

  private final Function<String, CompletionStage<KvNamespace>> namespaces;
  private final ItemStore store;
  private final PageTokens tokens;
  private final KvLimits limits;
  private final PointReadCache cache;
  private final ReadBudgets budgets;
  private final FetchSizes fetchSizes = new FetchSizes();
  private final DistributionSummary amplification;
  private final DistributionSummary fetchBytes;
  private final Counter fetched;
  private final Counter planned;
  private final Counter returned;

  GetItemsHandler(
      Function<String, CompletionStage<KvNamespace>> namespaces,
      ItemStore store,
      PageTokens tokens,
      KvLimits limits,
      PointReadCache cache,
      ReadBudgets budgets,
      MeterRegistry metrics) {
    this.namespaces = namespaces;
    this.store = store;
    this.tokens = tokens;
    this.limits = limits;
    this.cache = cache;
    this.budgets = budgets;
    this.amplification =
        DistributionSummary.builder("varve.kv.read.amplification")
            .description(
                "Rows Cassandra sent in the shape returned (with values when values are returned) per"
                    + " item returned, per GetItems page; rows read only to plan a page are not counted")
            .register(metrics);
    this.fetchBytes =
        DistributionSummary.builder("varve.kv.read.fetch.bytes")
            .baseUnit("bytes")
            .description(
                "Bytes of the largest CQL fetch of a GetItems page (bounded by kv.limits.maxFetchBytes)")
            .register(metrics);
    this.fetched =
        Counter.builder("varve.kv.read.rows.fetched")
            .description("Rows Cassandra sent to GetItems in the shape returned, taken or not")
            .register(metrics);
    this.planned =
        Counter.builder("varve.kv.read.rows.planned")
            .description("Rows of keys and sizes GetItems read to plan which rows fit a page")
            .register(metrics);
    this.returned =
        Counter.builder("varve.kv.read.items.returned")
            .description("Items GetItems returned")
            .register(metrics);
  }

  CompletionStage<GetItemsResponse> get(GetItemsRequest r) {
    ResponseMemory memory = ResponseAdmission.current();
    Names.namespace("namespace", r.getNamespace());
    String id = KvValidation.id(r.getId(), limits);
    KvRequests.predicate(
        r.hasPredicate(), r.getPredicate(), false, io.varve.core.kv.ClusteringOrder.ASC, limits);
    int pageSize = KvRequests.pageSize(r.getSelection(), limits);
    boolean values = KvRequests.values(r.getSelection());
    ReadSignals signals = ReadSignals.of(r.getSignalsMap());
    boolean raw = signals.compression();
    ResponseBound bound = signals.bound();
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
    return namespaces
        .apply(r.getNamespace())
        .thenCompose(
            ns -> {
              if (position != null && position.inside() != null) {
                return nextPart(
                    ns, id, position, r.getSelection().getItemLimit(), fingerprint, memory);
              }
              ItemPredicate predicate =
                  KvRequests.predicate(
                      r.hasPredicate(), r.getPredicate(), false, ns.order(), limits);
              long soFar = 0;
              long itemBytes = fetchSizes.estimate(ns.namespace());
              long largest = fetchSizes.largestEstimate(ns.namespace());
              if (position != null) {
                predicate = predicate.after(position.lastKey(), ns.order());
                soFar = position.returnedSoFar();
                itemBytes =
                    position.averageItemBytes() > 0 ? position.averageItemBytes() : itemBytes;
                largest = position.largestItemBytes() > 0 ? position.largestItemBytes() : largest;
              }
              long largestSoFar = position == null ? 0 : position.largestItemBytes();
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
                // an answer that needs parts or a larger message than the client takes is read
                if (hit.isPresent() && bound.fitsOneMessage(hit.get())) {
                  memory.hold(
                      ResponseBound.heldBytes(
                          hit.get().stream().mapToLong(i -> i.key().length + i.valueSize()).sum(),
                          hit.get().size()));
                  GetItemsResponse.Builder response = GetItemsResponse.newBuilder();
                  hit.get().forEach(item -> response.addItems(KvRequests.item(item, true)));
                  return CompletableFuture.completedFuture(response.build());
                }
              }
              long version = cache.version(ns.namespace(), id);
              ItemPredicate read = predicate;
              ReadBudget budget =
                  budgets.start(ns.slos().latency(KvSlos.GET_ITEMS), ReadBudget::of);
              int wanted = FetchSizes.of(pageSize, itemBytes, remaining);
              return budgets
                  .finish(
                      budget,
                      store.read(
                          ns,
                          id,
                          predicate,
                          values,
                          wanted,
                          FetchSizes.firstFetch(pageSize, itemBytes, largest, wanted),
                          new BytePage(pageSize, remaining, bound),
                          raw,
                          budget,
                          memory),
                      page -> budget.cutShort())
                  .thenApply(
                      page -> {
                        if (cached && !page.more()) {
                          cache.fill(ns, id, read, page.items(), version);
                        }
                        return page;
                      })
                  .thenApply(
                      page ->
                          respond(ns, page, values, fingerprint, before, largestSoFar)
                              .setPartial(
                                  budget.cutShort()
                                      && page.more()
                                      && page.parts() == null
                                      && !page.items().isEmpty())
                              .build());
            });
  }

  /**
   * The answer of a page; {@code largestBefore}: the largest item of the request's earlier pages (0
   * for a first page), carried on in the page token with this page's.
   */
  private GetItemsResponse.Builder respond(
      KvNamespace ns,
      ItemPage page,
      boolean values,
      byte[] fingerprint,
      long before,
      long largestBefore) {
    fetched.increment(page.rowsFetched());
    planned.increment(page.rowsPlanned());
    fetchBytes.record(page.largestFetchBytes());
    returned.increment(page.items().size());
    long largest = 0;
    for (KvItem item : page.items()) {
      largest = Math.max(largest, item.key().length + (values ? item.valueSize() : 0));
    }
    if (!page.items().isEmpty()) {
      amplification.record((double) page.rowsFetched() / page.items().size());
      fetchSizes.observe(ns.namespace(), page.items().size(), page.bytes(), largest);
    }
    List<Item> items = new ArrayList<>(page.items().size());
    for (KvItem item : page.items()) {
      items.add(
          page.parts() == null ? KvRequests.item(item, values) : ItemParts.of(item, page.parts()));
    }
    // added at once: each single add marks the builder changed, a cost per item of large pages
    GetItemsResponse.Builder response = GetItemsResponse.newBuilder().addAllItems(items);
    if (page.more() && !page.items().isEmpty()) {
      KvItem last = page.items().get(page.items().size() - 1);
      long average = Math.max(1, page.bytes() / page.items().size());
      KvPageToken next =
          new KvPageToken(
              last.key(),
              before + page.items().size(),
              average,
              Math.max(largestBefore, largest),
              page.parts() == null ? null : page.parts().at(1));
      response.setNextPageToken(tokens.seal(fingerprint, KvPageToken.KIND, next.encode()));
      if (page.parts() != null && last.key().length <= PARTS_AHEAD_MAX_KEY_BYTES) {
        // the parts ahead, for a client that reads them side by side
        for (int part = 1; part <= PARTS_AHEAD && part < page.parts().count(); part++) {
          response.addPartPageTokens(partToken(fingerprint, next, page.parts(), part));
        }
      }
    }
    return response;
  }

  /**
   * Parts a client may read side by side: the page of part 0 gives the tokens of the next {@value}
   * parts, each later part's page the token of the part this far ahead of it.
   */
  static final int PARTS_AHEAD = 4;

  /**
   * Keys of at most this many bytes get the tokens of parts ahead: each token holds the key, and
   * the tokens of a page stay well within the room its message keeps for them (16 KiB).
   */
  static final int PARTS_AHEAD_MAX_KEY_BYTES = 1024;

  /** The page token of part {@code part} of a value, the other fields as in {@code next}. */
  private String partToken(byte[] fingerprint, KvPageToken next, ValueParts parts, int part) {
    return tokens.seal(
        fingerprint,
        KvPageToken.KIND,
        new KvPageToken(
                next.lastKey(),
                next.returnedSoFar(),
                next.averageItemBytes(),
                next.largestItemBytes(),
                parts.at(part))
            .encode());
  }

  /**
   * The page of the next part of a value returned in parts, as {@code position} says: from the
   * version it pinned. After the value's last part, the token resumes after its key (the value
   * counted once against {@code item_limit}, when its first part was returned).
   */
  private CompletionStage<GetItemsResponse> nextPart(
      KvNamespace ns,
      String id,
      KvPageToken position,
      int itemLimit,
      byte[] fingerprint,
      ResponseMemory memory) {
    ValueParts parts = position.inside();
    byte[] key = position.lastKey();
    ReadBudget budget = budgets.start(ns.slos().latency(KvSlos.GET_ITEMS), ReadBudget::of);
    return budgets
        .finish(budget, store.readPart(ns, id, key, parts, memory), bytes -> false)
        .thenApply(
            bytes -> {
              GetItemsResponse.Builder response =
                  GetItemsResponse.newBuilder().addItems(ItemParts.of(key, bytes, parts));
              boolean atLimit = itemLimit > 0 && position.returnedSoFar() >= itemLimit;
              if (!parts.last() || !atLimit) {
                KvPageToken next =
                    new KvPageToken(
                        key,
                        position.returnedSoFar(),
                        position.averageItemBytes(),
                        position.largestItemBytes(),
                        parts.last() ? null : parts.at(parts.index() + 1));
                response.setNextPageToken(
                    tokens.seal(fingerprint, KvPageToken.KIND, next.encode()));
                int ahead = parts.index() + PARTS_AHEAD;
                if (ahead < parts.count() && key.length <= PARTS_AHEAD_MAX_KEY_BYTES) {
                  response.addPartPageTokens(partToken(fingerprint, next, parts, ahead));
                }
              }
              return response.build();
            });
  }
}
