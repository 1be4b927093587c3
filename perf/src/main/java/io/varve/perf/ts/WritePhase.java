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
 * against the same rows written by {@link RawCql}, with the same requests in flight. Both sides
 * first write for {@code warmup} seconds, alternating; then each side writes N/2 events twice, in
 * the order raw, API, API, raw. Prints events/s per side, their ratio, and the CPU time of each
 * process per 1,000 events.
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

  void run(Figures out, TimeSeriesClient varve, RawCql raw, CpuMeter cpu) throws Exception {
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
    // On two cores both JVMs compile their hot paths for minutes; measure after that.
    int chunk = Math.max(batch, events / 10);
    int warmupEvents = 0;
    long warmupStart = System.nanoTime();
    do {
      send(generator.batches("warm-v" + warmupEvents + "-", chunk, batch), viaVarve);
      send(generator.batches("warm-r" + warmupEvents + "-", chunk, batch), viaRaw);
      warmupEvents += chunk;
    } while (System.nanoTime() - warmupStart < warmupSeconds * 1_000_000_000L);
    out.put("write.warmup_seconds", (System.nanoTime() - warmupStart) / 1e9);
    out.put("write.warmup_events_per_side", warmupEvents);
    double varveSeconds = 0;
    double rawSeconds = 0;
    Map<String, Duration> varveCpu = new LinkedHashMap<>();
    Map<String, Duration> rawCpu = new LinkedHashMap<>();
    for (int round = 0; round < 2; round++) {
      int half = events / 2;
      // alternate which side goes first, so neither always inherits the other's flush and
      // compaction work
      for (boolean rawTurn :
          round == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
        List<List<Event>> batches =
            generator.batches((rawTurn ? "r" : "v") + round + "-", half, batch);
        Map<String, Duration> before = cpu.sample();
        double seconds = send(batches, rawTurn ? viaRaw : viaVarve);
        if (rawTurn) {
          rawSeconds += seconds;
          cpu.accumulate(before, rawCpu);
        } else {
          varveSeconds += seconds;
          cpu.accumulate(before, varveCpu);
        }
      }
    }
    int measured = (events / 2) * 2;
    rawCpu.forEach(
        (name, d) ->
            out.put("write.raw.cpu_ms_per_1k_events." + name, d.toMillis() * 1000.0 / measured));
    varveCpu.forEach(
        (name, d) ->
            out.put("write.varve.cpu_ms_per_1k_events." + name, d.toMillis() * 1000.0 / measured));
    out.put("write.events", measured);
    out.put("write.batch", batch);
    out.put("write.concurrency", concurrency);
    out.put("write.varve.events_per_s", measured / varveSeconds);
    out.put("write.raw.events_per_s", measured / rawSeconds);
    out.put("write.ratio", rawSeconds / varveSeconds);
  }

  /** Sends the batches with {@code concurrency} in flight; returns the elapsed seconds. */
  private double send(List<List<Event>> batches, Function<List<Event>, CompletionStage<?>> write)
      throws Exception {
    return InFlight.send(concurrency, batches.iterator(), write);
  }
}
