package io.varve.perf.ts;

import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.TimeSeriesClient;
import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.InFlight;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * The writes of {@code varve perf ts}: N events through the server's {@code WriteEventRecordsSync}
 * against the same rows written by {@link RawCql} and through the bare hop ({@link TimeSeriesHop}),
 * with the same requests in flight. The sides first write for {@code warmup} seconds, in turn; then
 * each side writes N/2 events twice, in the order raw, Varve, hop, hop, Varve, raw. Prints events/s
 * per side, their ratios ({@code write.varve_to_hop.ratio}: what Varve itself costs), and the CPU
 * time of each process per 1,000 events.
 */
final class WritePhase {

  private final int events;
  private final int batch;
  private final int concurrency;
  private final int warmupSeconds;

  WritePhase(int events, int batch, int concurrency, int warmupSeconds) {
    this.events = events;
    this.batch = batch;
    this.concurrency = concurrency;
    this.warmupSeconds = warmupSeconds;
  }

  void run(Figures out, TimeSeriesClient varve, RawCql raw, TimeSeriesHop.Process hop, CpuMeter cpu)
      throws Exception {
    EventGenerator generator =
        new EventGenerator(1000, Duration.ofMinutes(50).toMillis(), Instant.now().minusSeconds(60));
    Function<List<Event>, CompletionStage<?>> viaVarve =
        batchEvents ->
            varve
                .writeEventRecordsSync(
                    WriteEventRecordsRequest.newBuilder()
                        .setNamespace(TimeSeriesBenchmark.NAMESPACE)
                        .addAllEvents(batchEvents)
                        .build())
                .thenAccept(
                    r -> {
                      if (r.getWrittenCount() != batchEvents.size()) {
                        throw new IllegalStateException(
                            "write refused events: " + r.getErrorsList());
                      }
                    });
    Function<List<Event>, CompletionStage<?>> viaRaw = raw::write;
    Function<List<Event>, CompletionStage<?>> viaHop = hop::write;
    // On two cores both JVMs compile their hot paths for minutes; measure after that.
    int chunk = Math.max(batch, events / 10);
    int warmupEvents = 0;
    long warmupStart = System.nanoTime();
    do {
      send(generator.batches("warm-v" + warmupEvents + "-", chunk, batch), viaVarve);
      send(generator.batches("warm-r" + warmupEvents + "-", chunk, batch), viaRaw);
      send(generator.batches("warm-h" + warmupEvents + "-", chunk, batch), viaHop);
      warmupEvents += chunk;
    } while (System.nanoTime() - warmupStart < warmupSeconds * 1_000_000_000L);
    out.put("write.warmup_seconds", (System.nanoTime() - warmupStart) / 1e9);
    out.put("write.warmup_events_per_side", warmupEvents);
    Map<String, Function<List<Event>, CompletionStage<?>>> sides = new LinkedHashMap<>();
    sides.put("raw", viaRaw);
    sides.put("varve", viaVarve);
    sides.put("hop", viaHop);
    Map<String, Double> seconds = new LinkedHashMap<>();
    Map<String, Map<String, Duration>> cpuBySide = new LinkedHashMap<>();
    int half = events / 2;
    // each side twice, in the order raw, Varve, hop, hop, Varve, raw: none always inherits
    // another's flush and compaction work
    List<String> order = List.of("raw", "varve", "hop", "hop", "varve", "raw");
    for (int turn = 0; turn < order.size(); turn++) {
      String side = order.get(turn);
      List<List<Event>> batches = generator.batches(side.charAt(0) + "" + turn + "-", half, batch);
      Map<String, Duration> before = cpu.sample();
      seconds.merge(side, send(batches, sides.get(side)), Double::sum);
      cpu.accumulate(before, cpuBySide.computeIfAbsent(side, k -> new LinkedHashMap<>()));
    }
    int measured = half * 2;
    cpuBySide.forEach(
        (side, byProcess) ->
            byProcess.forEach(
                (name, d) ->
                    out.put(
                        "write." + side + ".cpu_ms_per_1k_events." + name,
                        d.toMillis() * 1000.0 / measured)));
    out.put("write.events", measured);
    out.put("write.batch", batch);
    out.put("write.concurrency", concurrency);
    out.put("write.varve.events_per_s", measured / seconds.get("varve"));
    out.put("write.raw.events_per_s", measured / seconds.get("raw"));
    out.put("write.hop.events_per_s", measured / seconds.get("hop"));
    out.put("write.ratio", seconds.get("raw") / seconds.get("varve"));
    out.put("write.hop.ratio", seconds.get("raw") / seconds.get("hop"));
    out.put("write.varve_to_hop.ratio", seconds.get("hop") / seconds.get("varve"));
  }

  /** Sends the batches with {@code concurrency} in flight; returns the elapsed seconds. */
  private double send(List<List<Event>> batches, Function<List<Event>, CompletionStage<?>> write)
      throws Exception {
    return InFlight.send(concurrency, batches.iterator(), write);
  }
}
