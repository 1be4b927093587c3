package io.varve.perf.kv;

import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.measure.InFlight;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * {@code put.ratio}: PutItems items/s against {@link RawItems} writing the same rows (same item
 * sizes and items per request, the same requests in flight), each side for {@code --duration}
 * seconds in two halves, in the order raw, API, API, raw, after {@code --warmup} seconds of both
 * alternating. Requests spread over {@code --records} records; every item is a new row.
 */
final class PutPhase {

  private final KvParameters parameters;
  private final ItemData data;

  PutPhase(KvParameters parameters, ItemData data) {
    this.parameters = parameters;
    this.data = data;
  }

  /** One request: a record and its items. */
  private record Request(String id, List<ItemData.Item> items) {}

  void run(Figures out, KvApi api, RawItems raw, CpuMeter cpu) throws Exception {
    Function<Request, CompletionStage<?>> viaVarve =
        r -> api.put(KvBenchmark.NAMESPACE, r.id(), r.items(), KvApi.Token.now());
    Function<Request, CompletionStage<?>> viaRaw =
        r -> raw.put(r.id(), r.items(), KvApi.Token.now());
    long warmupEnd = System.nanoTime() + parameters.warmup().toNanos();
    Duration slice = Duration.ofSeconds(5);
    int round = 0;
    while (System.nanoTime() < warmupEnd) {
      send(viaVarve, "wv" + round, slice);
      send(viaRaw, "wr" + round, slice);
      round++;
    }
    Duration half = parameters.duration().dividedBy(2);
    long[] items = new long[2]; // [raw, varve]
    double[] seconds = new double[2];
    Map<String, Duration> rawCpu = new LinkedHashMap<>();
    Map<String, Duration> varveCpu = new LinkedHashMap<>();
    for (boolean rawTurn : new boolean[] {true, false, false, true}) {
      int side = rawTurn ? 0 : 1;
      Map<String, Duration> before = cpu.sample();
      long[] sent = new long[1];
      seconds[side] +=
          InFlight.send(
              parameters.concurrency(),
              requests((rawTurn ? "r" : "v") + round++, half, sent),
              rawTurn ? viaRaw : viaVarve);
      items[side] += sent[0];
      cpu.accumulate(before, rawTurn ? rawCpu : varveCpu);
    }
    rawCpu.forEach(
        (name, d) -> out.put("put.raw.cpu_ms_per_1k_items." + name, perThousand(d, items[0])));
    varveCpu.forEach(
        (name, d) -> out.put("put.varve.cpu_ms_per_1k_items." + name, perThousand(d, items[1])));
    double rawRate = items[0] / seconds[0];
    double varveRate = items[1] / seconds[1];
    out.put("put.items.raw", items[0]);
    out.put("put.items.varve", items[1]);
    out.put("put.raw.items_per_s", rawRate);
    out.put("put.varve.items_per_s", varveRate);
    out.put("put.ratio", Goals.ratio(varveRate, rawRate));
  }

  private static double perThousand(Duration cpu, long items) {
    return items == 0 ? Double.NaN : cpu.toMillis() * 1000.0 / items;
  }

  private void send(Function<Request, CompletionStage<?>> side, String prefix, Duration length)
      throws InterruptedException {
    InFlight.send(parameters.concurrency(), requests(prefix, length, new long[1]), side);
  }

  /**
   * Requests made until {@code length} has passed; {@code sent[0]} counts their items. Request n
   * goes to record {@code n mod --records}, its keys {@code <prefix>-<n>-<i>} are new.
   */
  private Iterator<Request> requests(String prefix, Duration length, long[] sent) {
    long end = System.nanoTime() + length.toNanos();
    return new Iterator<>() {
      private long n;

      @Override
      public boolean hasNext() {
        return System.nanoTime() < end;
      }

      @Override
      public Request next() {
        long request = n++;
        sent[0] += parameters.batch();
        return new Request(
            "put-" + request % parameters.records(),
            data.items(prefix + "-" + request + "-", parameters.batch(), parameters.itemBytes()));
      }
    };
  }
}
