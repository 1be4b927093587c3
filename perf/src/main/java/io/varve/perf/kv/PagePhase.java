package io.varve.perf.kv;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.api.kv.v1.Item;
import io.varve.client.VarveClient;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.measure.Interleaved;
import java.util.ArrayList;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * {@code page.p99.spread}: the p99 of a full first page of {@link KvBenchmark#PAGE_BYTES} at item
 * sizes 100 B, 10 KiB and 1 MiB (largest ÷ smallest), the three reads one after the other ({@link
 * Interleaved}). Each size has a namespace of its own, as a use case would (the first page's fetch
 * size comes from the namespace's item-size estimate), and one record holding a page and two items
 * more. Every answer is checked: a full page (within one item of the page size, never above it) and
 * a page token.
 *
 * <p>Beside each, in the same rounds, the store's own cost of that page: a raw CQL client reads the
 * same rows from the namespace's table, as a client that knows the rows' sizes would (one query of
 * exactly the page's rows and the one after them, in one fetch): {@code page.<size>.raw.*} and
 * {@code page.raw.p99.spread}, printed, not judged. What the raw spread leaves of the goal is what
 * Varve's read path can be asked for on this machine.
 */
final class PagePhase {

  /** A page size under test: its label in the figures and its item size (key plus value). */
  record Size(String label, int itemBytes) {

    String namespace() {
      return "perf_kv_page_" + label;
    }

    int itemsPerRecord() {
      return (int) (KvBenchmark.PAGE_BYTES / itemBytes) + 2;
    }
  }

  static final List<Size> SIZES =
      List.of(
          new Size("100b", 100),
          new Size("10kib", 10 * 1024),
          new Size("1mib", ItemData.MAX_ITEM_BYTES));

  static final String RECORD = "page";

  private final KvParameters parameters;
  private final ItemData data;

  PagePhase(KvParameters parameters, ItemData data) {
    this.parameters = parameters;
    this.data = data;
  }

  /** Creates the namespaces (tables {@code page_<label>} in the benchmark's keyspace). */
  static void createNamespaces(VarveClient client) {
    for (Size size : SIZES) {
      KvApi.createNamespace(client, size.namespace(), KvBenchmark.KEYSPACE, "page_" + size.label());
    }
  }

  void run(Figures out, KvApi api, CqlSession session) throws Exception {
    List<Interleaved.Request> reads = new ArrayList<>();
    for (Size size : SIZES) {
      RawItems raw =
          new RawItems(
              session,
              KvBenchmark.KEYSPACE + ".page_" + size.label(),
              DefaultConsistencyLevel.LOCAL_QUORUM);
      api.putAll(
          size.namespace(),
          RECORD,
          ItemData.requests(
              data.items("k", size.itemsPerRecord(), size.itemBytes()),
              KvBenchmark.MAX_REQUEST_ITEMS,
              KvBenchmark.MAX_REQUEST_BYTES));
      reads.add(() -> check(size, api.get(size.namespace(), RECORD, KvBenchmark.PAGE_BYTES, "")));
      int pageItems = KvBenchmark.PAGE_BYTES / size.itemBytes();
      reads.add(
          () -> {
            int items = raw.firstPage(RECORD, KvBenchmark.PAGE_BYTES, pageItems + 1);
            if (items != pageItems) {
              throw new IllegalStateException(
                  "the raw first page of " + size.namespace() + " holds " + items + " items");
            }
          });
    }
    Interleaved.Result result = Interleaved.run(parameters.warmup(), parameters.duration(), reads);
    out.put("page.bytes", KvBenchmark.PAGE_BYTES);
    out.put("page.rounds", result.rounds());
    List<Double> p99s = new ArrayList<>();
    List<Double> rawP99s = new ArrayList<>();
    for (int i = 0; i < SIZES.size(); i++) {
      Size size = SIZES.get(i);
      Histogram varve = result.micros().get(2 * i);
      Histogram raw = result.micros().get(2 * i + 1);
      out.put(
          "page." + size.label() + ".items_per_page", KvBenchmark.PAGE_BYTES / size.itemBytes());
      out.latency("page." + size.label(), varve);
      out.latency("page." + size.label() + ".raw", raw);
      out.put(
          "page." + size.label() + ".p99.ratio",
          Goals.ratio(varve.getValueAtPercentile(99), raw.getValueAtPercentile(99)));
      p99s.add((double) varve.getValueAtPercentile(99));
      rawP99s.add((double) raw.getValueAtPercentile(99));
    }
    out.put("page.raw.p99.spread", Goals.spread(rawP99s));
    out.put("page.p99.spread", Goals.spread(p99s));
  }

  private static void check(Size size, GetItemsResponse page) {
    long bytes = 0;
    for (Item item : page.getItemsList()) {
      bytes += item.getKey().size() + item.getValue().size();
    }
    if (bytes > KvBenchmark.PAGE_BYTES
        || bytes <= KvBenchmark.PAGE_BYTES - size.itemBytes()
        || page.getNextPageToken().isEmpty()) {
      throw new IllegalStateException(
          "the first page of "
              + size.namespace()
              + " holds "
              + page.getItemsCount()
              + " items, "
              + bytes
              + " bytes"
              + (page.getNextPageToken().isEmpty() ? ", no page token" : "")
              + "; a full page of "
              + KvBenchmark.PAGE_BYTES
              + " bytes was expected");
    }
  }
}
