package io.varve.server.kv;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.api.kv.v1.ChunkedValue;
import io.varve.api.kv.v1.Item;
import io.varve.api.kv.v1.ScanItemsRequest;
import io.varve.api.kv.v1.ScanItemsResponse;
import io.varve.api.kv.v1.ScannedItem;
import io.varve.core.kv.BytePage;
import io.varve.core.kv.FetchSizes;
import io.varve.core.kv.ItemStore;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvSlos;
import io.varve.core.kv.ReadBudget;
import io.varve.core.kv.ResponseBound;
import io.varve.core.kv.ScanPage;
import io.varve.core.kv.ScanPageToken;
import io.varve.core.kv.ScanPosition;
import io.varve.core.kv.ScanSegment;
import io.varve.core.namespace.Names;
import io.varve.core.read.PageTokens;
import io.varve.core.read.ResponseMemory;
import io.varve.server.admission.ResponseAdmission;
import io.varve.server.request.ReadBudgets;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * ScanItems: one segment of a namespace's token ring, a page at a time ({@link ItemStore#scan}).
 * Pages are bounded in bytes (ids, keys and values) like GetItems' pages; the page token, signed
 * and bound to the request (namespace, segment, total, item limit, values or not), holds the
 * position of the last row consumed, the items returned so far and the average item size seen. A
 * page stops early, {@code partial}, rather than exceed the namespace's ScanItems latency max or
 * the caller's deadline ({@link ReadBudgets}).
 *
 * <p>No page exceeds the largest message the client takes ({@link ReadSignals}). A value that fits
 * no message is not sent in parts by a scan: to a client that signalled {@code chunking} its item
 * comes alone in its page, with an empty value and {@code chunked} saying its size (no {@code
 * chunk}), for the client to read it by GetItems, in parts; a client that did not is refused
 * FAILED_PRECONDITION, told what to signal.
 */
final class ScanItemsHandler {

  private static final String PAGE_TOKEN = "page_token";

  private final Function<String, CompletionStage<KvNamespace>> namespaces;
  private final ItemStore store;
  private final PageTokens tokens;
  private final KvLimits limits;
  private final ReadBudgets budgets;
  private final FetchSizes fetchSizes = new FetchSizes();
  private final Counter fetched;
  private final Counter returned;

  ScanItemsHandler(
      Function<String, CompletionStage<KvNamespace>> namespaces,
      ItemStore store,
      PageTokens tokens,
      KvLimits limits,
      ReadBudgets budgets,
      MeterRegistry metrics) {
    this.namespaces = namespaces;
    this.budgets = budgets;
    this.store = store;
    this.tokens = tokens;
    this.limits = limits;
    this.fetched =
        Counter.builder("varve.kv.scan.rows.fetched")
            .description("Rows ScanItems read, returned or not (expired items, a page's overflow)")
            .register(metrics);
    this.returned =
        Counter.builder("varve.kv.scan.items.returned")
            .description("Items ScanItems returned")
            .register(metrics);
  }

  CompletionStage<ScanItemsResponse> scan(ScanItemsRequest r) {
    ResponseMemory memory = ResponseAdmission.current();
    Names.namespace("namespace", r.getNamespace());
    ScanSegment segment =
        ScanSegment.of(r.hasSegment(), r.getSegment(), r.hasTotalSegments(), r.getTotalSegments());
    ResponseBound bound = ReadSignals.of(r.getSignalsMap()).bound();
    int pageSize = KvRequests.pageSize(r.getSelection(), limits);
    boolean values = KvRequests.values(r.getSelection());
    int itemLimit = r.getSelection().getItemLimit();
    byte[] fingerprint =
        PageTokens.fingerprint(
            "ScanItems",
            r.getNamespace(),
            Integer.toString(segment.segment()),
            Integer.toString(segment.total()),
            Integer.toString(itemLimit),
            Boolean.toString(values));
    ScanPageToken position =
        r.getPageToken().isEmpty()
            ? null
            : ScanPageToken.decode(
                tokens.open(fingerprint, ScanPageToken.KIND, r.getPageToken(), PAGE_TOKEN),
                PAGE_TOKEN);
    long soFar = position == null ? 0 : position.returnedSoFar();
    long remaining = itemLimit == 0 ? Long.MAX_VALUE : itemLimit - soFar;
    return namespaces
        .apply(r.getNamespace())
        .thenCompose(
            ns -> {
              long itemBytes =
                  position != null && position.averageItemBytes() > 0
                      ? position.averageItemBytes()
                      : fetchSizes.estimate(ns.namespace());
              ScanPosition after =
                  position == null
                      ? null
                      : new ScanPosition(
                          position.lastToken(), position.lastId(), position.lastKey());
              ReadBudget budget =
                  budgets.start(ns.slos().latency(KvSlos.SCAN_ITEMS), ReadBudget::of);
              return budgets
                  .finish(
                      budget,
                      store.scan(
                          ns,
                          segment,
                          after,
                          values,
                          FetchSizes.of(pageSize, itemBytes, remaining),
                          new BytePage(pageSize, remaining, bound),
                          budget,
                          memory),
                      page -> budget.cutShort())
                  .thenApply(
                      page ->
                          respond(ns, page, values, fingerprint, soFar)
                              .setPartial(budget.cutShort() && page.more())
                              .build());
            });
  }

  private ScanItemsResponse.Builder respond(
      KvNamespace ns, ScanPage page, boolean values, byte[] fingerprint, long soFar) {
    fetched.increment(page.rowsFetched());
    returned.increment(page.items().size());
    fetchSizes.observe(ns.namespace(), page.items().size(), page.bytes());
    ScanItemsResponse.Builder response = ScanItemsResponse.newBuilder();
    page.items()
        .forEach(
            i ->
                response.addItems(
                    ScannedItem.newBuilder()
                        .setId(i.id())
                        .setItem(
                            page.valueLeftOut()
                                ? leftOut(i.item())
                                : KvRequests.item(i.item(), values))));
    if (page.more()) {
      long average = page.items().isEmpty() ? 0 : Math.max(1, page.bytes() / page.items().size());
      ScanPosition last = page.last();
      response.setNextPageToken(
          tokens.seal(
              fingerprint,
              ScanPageToken.KIND,
              new ScanPageToken(
                      last.token(), last.id(), last.key(), soFar + page.items().size(), average)
                  .encode()));
    }
    return response;
  }

  /**
   * The item of a value left out of a scan: its value empty, {@code chunked.value_size} its size,
   * to be read by GetItems.
   */
  private static Item leftOut(KvItem item) {
    return KvRequests.item(item, false).toBuilder()
        .setChunked(ChunkedValue.newBuilder().setValueSize(item.valueSize()))
        .build();
  }
}
