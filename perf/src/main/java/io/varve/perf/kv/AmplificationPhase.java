package io.varve.perf.kv;

import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.local.server.ServerMetrics;
import io.varve.perf.measure.Figures;
import java.net.URI;
import java.util.List;

/**
 * {@code read_amplification}: a record of {@code --mixed-items} items of mixed sizes ({@link
 * ItemData#MIXED_SIZES}) read whole in pages of {@link KvBenchmark#PAGE_BYTES}, {@value #PASSES}
 * times, through GetItems with its adaptive fetch sizes: rows fetched ÷ items returned, from the
 * server's {@code varve_kv_read_*} counters before and after.
 *
 * <p>Beside it, the fixed limit's figure, measured by a raw CQL paging loop over the same rows in
 * the raw table ({@link RawItems#readInPages}): each page a new query after the last key, {@code
 * --fixed-fetch-rows} rows per fetch, the rest of a fetch discarded once the page is full. Both
 * count the rows Cassandra sent ({@code rows_received}), as the server's counter does; the raw loop
 * also prints the rows it looked at ({@code rows_visited}), the waste a fixed limit hides.
 */
final class AmplificationPhase {

  static final String NAMESPACE = "perf_kv_mixed";
  static final String RECORD = "mixed";
  static final int PASSES = 3;

  private final KvParameters parameters;
  private final ItemData data;

  AmplificationPhase(KvParameters parameters, ItemData data) {
    this.parameters = parameters;
    this.data = data;
  }

  void run(Figures out, KvApi api, RawItems raw, URI server) throws Exception {
    List<ItemData.Item> items = data.mixed("m", parameters.mixedItems(), 7);
    List<List<ItemData.Item>> requests =
        ItemData.requests(items, KvBenchmark.MAX_REQUEST_ITEMS, KvBenchmark.MAX_REQUEST_BYTES);
    api.putAll(NAMESPACE, RECORD, requests);
    raw.putAll(RECORD, requests);
    long bytes = items.stream().mapToLong(ItemData.Item::bytes).sum();

    ServerMetrics before = ServerMetrics.scrape(server);
    long pages = 0;
    for (int pass = 0; pass < PASSES; pass++) {
      pages += readWhole(api, items.size());
    }
    ServerMetrics after = ServerMetrics.scrape(server);
    double fetched = delta(before, after, "varve_kv_read_rows_fetched_total");
    double planned = delta(before, after, "varve_kv_read_rows_planned_total");
    double returned = delta(before, after, "varve_kv_read_items_returned_total");
    if (returned != (double) PASSES * items.size()) {
      throw new IllegalStateException(
          "the server counted "
              + returned
              + " items returned, not the "
              + PASSES * items.size()
              + " read");
    }
    RawItems.FixedFetch fixed = null;
    for (int pass = 0; pass < PASSES; pass++) {
      fixed = raw.readInPages(RECORD, KvBenchmark.PAGE_BYTES, parameters.fixedFetchRows());
      if (fixed.returned() != items.size()) {
        throw new IllegalStateException(
            "the raw paging loop returned " + fixed.returned() + " of " + items.size() + " items");
      }
    }
    out.put("read_amplification.items", items.size());
    out.put("read_amplification.record_bytes", bytes);
    out.put("read_amplification.passes", PASSES);
    out.put("read_amplification.pages_per_pass", (double) pages / PASSES);
    out.put("read_amplification", fetched / returned);
    out.put("read_amplification.rows_planned_per_item", planned / returned);
    out.put("read_amplification.fixed.method", "raw CQL paging loop");
    out.put("read_amplification.fixed.fetch_rows", parameters.fixedFetchRows());
    out.put("read_amplification.fixed.pages_per_pass", fixed.pages());
    out.put("read_amplification.fixed.rows_visited", (double) fixed.visited() / fixed.returned());
    out.put("read_amplification.fixed.rows_received", (double) fixed.received() / fixed.returned());
  }

  /** Reads the record page by page; checks every item came once, in order; returns the pages. */
  private static long readWhole(KvApi api, int expected) {
    String token = "";
    long pages = 0;
    int seen = 0;
    do {
      GetItemsResponse page = api.get(NAMESPACE, RECORD, KvBenchmark.PAGE_BYTES, token);
      for (var item : page.getItemsList()) {
        String key = item.getKey().toStringUtf8();
        if (!key.equals(
            new String(ItemData.key("m", seen), java.nio.charset.StandardCharsets.UTF_8))) {
          throw new IllegalStateException(
              "GetItems returned key " + key + " where item " + seen + " was expected");
        }
        seen++;
      }
      token = page.getNextPageToken();
      pages++;
    } while (!token.isEmpty());
    if (seen != expected) {
      throw new IllegalStateException(
          "GetItems returned " + seen + " of the record's " + expected + " items");
    }
    return pages;
  }

  private static double delta(ServerMetrics before, ServerMetrics after, String counter) {
    return after.sum(counter) - before.sum(counter);
  }
}
