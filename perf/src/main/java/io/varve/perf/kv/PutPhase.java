package io.varve.perf.kv;

import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.measure.InFlight;
import java.time.Duration;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * {@code put.ratio}: PutItems items/s against {@link RawItems} writing the same rows (same item
 * sizes and items per request, the same requests in flight), each side for {@code --duration}
 * seconds in two halves, in the order raw, API, hop, hop, API, raw, after {@code --warmup} seconds
 * of the three alternating, and then further rounds of 5 s a side until a round's JIT compilers
 * take under {@value CpuMeter#SETTLED_JIT_SHARE} of the CPU time of the processes measured (at most
 * {@value #MAX_SETTLING_ROUNDS} rounds): a server still compiling is not what a user runs for days,
 * and on two slow cores Varve's server still spent a fifth of its CPU time compiling after 120 s.
 * The third side is the {@link BareHop}: the same PutItems through a server that does nothing but
 * write the rows ({@code put.hop.ratio}, hop ÷ raw, the most any server in between can reach here;
 * {@code put.varve_to_hop.ratio}, what Varve adds to it). Requests spread over {@code --records}
 * records; every item is a new row.
 */
final class PutPhase {

  /** Rounds of the three sides after {@code --warmup}, at most, for the JIT compilers to settle. */
  static final int MAX_SETTLING_ROUNDS = 12;

  private static final Duration SLICE = Duration.ofSeconds(5);

  private final KvParameters parameters;
  private final ItemData data;

  PutPhase(KvParameters parameters, ItemData data) {
    this.parameters = parameters;
    this.data = data;
  }

  /** One request: a record and its items. */
  private record Request(String id, List<ItemData.Item> items) {}

  /** A side of the comparison: its name in the figures and how it sends a request. */
  private record Side(String name, Function<Request, CompletionStage<?>> send) {}

  void run(
      Figures out,
      KvApi api,
      RawItems raw,
      BareHop.Process hop,
      CpuMeter cpu,
      Consumer<String> progress)
      throws Exception {
    Side viaRaw = new Side("raw", r -> raw.put(r.id(), r.items(), KvApi.Token.now()));
    Side viaVarve =
        new Side(
            "varve", r -> api.put(KvBenchmark.NAMESPACE, r.id(), r.items(), KvApi.Token.now()));
    Side viaHop = new Side("hop", r -> hop.put(r.id(), r.items(), KvApi.Token.now()));
    List<Side> sides = List.of(viaRaw, viaVarve, viaHop);
    long warmupEnd = System.nanoTime() + parameters.warmup().toNanos();
    int round = 0;
    while (System.nanoTime() < warmupEnd) {
      warmUp(sides, round++);
    }
    double jitShare = Double.NaN;
    for (int settling = 1; settling <= MAX_SETTLING_ROUNDS; settling++) {
      Map<String, Duration> before = cpu.sample();
      warmUp(sides, round++);
      Map<String, Duration> used = new LinkedHashMap<>();
      cpu.accumulate(before, used);
      jitShare = CpuMeter.jitShare(used);
      progress.accept(
          String.format(
              Locale.ROOT,
              "puts: settling round %d: JIT compilers %.0f %% of %.1f s CPU",
              settling,
              jitShare * 100,
              CpuMeter.seconds(used)));
      if (jitShare < CpuMeter.SETTLED_JIT_SHARE) {
        break;
      }
    }
    out.put("put.warmup.rounds", round);
    out.put("put.warmup.jit_share", jitShare);
    Duration half = parameters.duration().dividedBy(2);
    Map<String, Long> items = new LinkedHashMap<>();
    Map<String, Double> seconds = new LinkedHashMap<>();
    Map<String, Map<String, Duration>> cpuBySide = new LinkedHashMap<>();
    for (Side side : List.of(viaRaw, viaVarve, viaHop, viaHop, viaVarve, viaRaw)) {
      Map<String, Duration> before = cpu.sample();
      long[] sent = new long[1];
      double took =
          InFlight.send(
              parameters.concurrency(), requests(side.name() + round++, half, sent), side.send());
      seconds.merge(side.name(), took, Double::sum);
      items.merge(side.name(), sent[0], Long::sum);
      cpu.accumulate(before, cpuBySide.computeIfAbsent(side.name(), k -> new LinkedHashMap<>()));
    }
    cpuBySide.forEach(
        (side, byProcess) ->
            byProcess.forEach(
                (name, d) ->
                    out.put(
                        "put." + side + ".cpu_ms_per_1k_items." + name,
                        perThousand(d, items.get(side)))));
    // Varve's server against the hop's (the server in between), Varve's Java client against the
    // plain generated stub that drives the hop
    out.put(
        "put.server.cpu_per_item.ratio",
        Goals.ratio(
            perThousand(cpuBySide.get("varve").get("server"), items.get("varve")),
            perThousand(cpuBySide.get("hop").get("hop"), items.get("hop"))));
    out.put(
        "put.client.cpu_per_item.ratio",
        Goals.ratio(
            perThousand(cpuBySide.get("varve").get("client"), items.get("varve")),
            perThousand(cpuBySide.get("hop").get("client"), items.get("hop"))));
    Map<String, Double> rate = new LinkedHashMap<>();
    for (Side side : sides) {
      long sent = items.get(side.name());
      double perSecond = sent / seconds.get(side.name());
      rate.put(side.name(), perSecond);
      out.put("put.items." + side.name(), sent);
      out.put("put." + side.name() + ".items_per_s", perSecond);
    }
    out.put("put.hop.ratio", Goals.ratio(rate.get("hop"), rate.get("raw")));
    out.put("put.varve_to_hop.ratio", Goals.ratio(rate.get("varve"), rate.get("hop")));
    out.put("put.ratio", Goals.ratio(rate.get("varve"), rate.get("raw")));
  }

  private static double perThousand(Duration cpu, long items) {
    return items == 0 ? Double.NaN : cpu.toMillis() * 1000.0 / items;
  }

  /** One warm-up round: each side in turn for {@link #SLICE}, not measured. */
  private void warmUp(List<Side> sides, int round) throws InterruptedException {
    for (Side side : sides) {
      send(side.send(), "w" + side.name() + round, SLICE);
    }
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
