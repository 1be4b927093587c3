package io.varve.perf.kv;

import io.varve.api.kv.v1.GetItemsResponse;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.measure.Interleaved;
import java.util.List;
import org.HdrHistogram.Histogram;

/**
 * {@code get.p99.ratio}: GetItems of one record of 100 items of 1 KiB (one page) against the raw
 * read of the same 100 rows, one after the other ({@link Interleaved}), for {@code --duration}
 * after {@code --warmup}. Every answer is checked: 100 items, no page token; 100 rows. In the same
 * rounds the {@link BareHop} answers the same rows (in its own table) as a GetItems ({@code
 * get.hop.p99.ratio}, hop ÷ raw: the least a server in between adds here).
 */
final class GetPhase {

  static final String RECORD = "get-100";
  static final int ITEMS = 100;
  static final int ITEM_BYTES = 1024;

  private final KvParameters parameters;
  private final ItemData data;

  GetPhase(KvParameters parameters, ItemData data) {
    this.parameters = parameters;
    this.data = data;
  }

  void run(Figures out, KvApi api, RawItems raw, BareHop.Process hop) throws Exception {
    List<ItemData.Item> items = data.items("g", ITEMS, ITEM_BYTES);
    api.putAll(KvBenchmark.NAMESPACE, RECORD, List.of(items));
    raw.putAll(RECORD, List.of(items));
    hop.put(RECORD, items, KvApi.Token.now()).toCompletableFuture().join();
    Interleaved.Result result =
        Interleaved.run(
            parameters.warmup(),
            parameters.duration(),
            List.of(
                () -> {
                  int rows = raw.readAll(RECORD);
                  if (rows != ITEMS) {
                    throw new IllegalStateException("the raw read returned " + rows + " rows");
                  }
                },
                () -> {
                  GetItemsResponse r =
                      api.get(KvBenchmark.NAMESPACE, RECORD, KvBenchmark.PAGE_BYTES, "");
                  if (r.getItemsCount() != ITEMS || !r.getNextPageToken().isEmpty()) {
                    throw new IllegalStateException(
                        "GetItems returned "
                            + r.getItemsCount()
                            + " items"
                            + (r.getNextPageToken().isEmpty() ? "" : " and a page token"));
                  }
                },
                () -> {
                  int answered = hop.get(RECORD).getItemsCount();
                  if (answered != ITEMS) {
                    throw new IllegalStateException("the hop returned " + answered + " items");
                  }
                }));
    Histogram rawMicros = result.micros().get(0);
    Histogram varveMicros = result.micros().get(1);
    Histogram hopMicros = result.micros().get(2);
    out.put("get.items", ITEMS);
    out.put("get.item_bytes", ITEM_BYTES);
    out.put("get.rounds", result.rounds());
    out.latency("get.raw", rawMicros);
    out.latency("get.varve", varveMicros);
    out.latency("get.hop", hopMicros);
    out.put(
        "get.hop.p99.ratio",
        Goals.ratio(hopMicros.getValueAtPercentile(99), rawMicros.getValueAtPercentile(99)));
    out.put(
        "get.p99.ratio",
        Goals.ratio(varveMicros.getValueAtPercentile(99), rawMicros.getValueAtPercentile(99)));
    out.put(
        "get.varve_to_hop.p99.ratio",
        Goals.ratio(varveMicros.getValueAtPercentile(99), hopMicros.getValueAtPercentile(99)));
  }
}
