package io.varve.perf.dataplane;

import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.TimeSeriesClient;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.measure.InFlight;
import io.varve.perf.ts.EventGenerator;
import io.varve.perf.ts.RawCql;
import java.time.Duration;
import java.util.List;

/**
 * {@code buffered.ratio}: events per second drained to Cassandra by the fire-and-forget {@code
 * WriteEventRecords} ÷ events per second written by the raw async CQL writer, the same events with
 * the same requests in flight on both sides. The API side's time runs from its first request until
 * the server's {@code varve_buffer_written_events_total} has counted every event: until the buffer
 * has written them, not until it answered. Both sides alternate for the warm-up, then each is
 * measured in rounds of two halves, in the order raw, API, API, raw; the ratio is of the rates over
 * all rounds, and the lowest and highest ratio of a single round show how much one round alone
 * would have wandered (a pause of Cassandra's collector falls in one side's half, not the other's).
 */
final class BufferedPhase {

  private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);

  private final DataPlaneParameters parameters;
  private final EventGenerator events;
  private int round;

  BufferedPhase(DataPlaneParameters parameters, EventGenerator events) {
    this.parameters = parameters;
    this.events = events;
  }

  /** Runs the phase, prints its figures, and returns the API's drained events per second. */
  double run(Figures out, TimeSeriesClient api, RawCql raw, BufferMetrics buffer) throws Exception {
    int warmupEvents = Math.max(parameters.batch(), parameters.events() / 10);
    long warmupEnd = System.nanoTime() + parameters.warmup().toNanos();
    while (System.nanoTime() < warmupEnd) {
      raw(raw, warmupEvents);
      api(api, buffer, warmupEvents);
    }
    int half = parameters.events() / 2;
    double rawSeconds = 0;
    double apiSeconds = 0;
    double lowest = Double.MAX_VALUE;
    double highest = 0;
    for (int r = 0; r < parameters.rounds(); r++) {
      double rawRound = raw(raw, half);
      double apiRound = api(api, buffer, half);
      apiRound += api(api, buffer, half);
      rawRound += raw(raw, half);
      double ratio = rawRound / apiRound; // same events on both sides: the ratio of the rates
      lowest = Math.min(lowest, ratio);
      highest = Math.max(highest, ratio);
      rawSeconds += rawRound;
      apiSeconds += apiRound;
    }
    long measured = 2L * half * parameters.rounds();
    double rawRate = measured / rawSeconds;
    double apiRate = measured / apiSeconds;
    out.put("buffered.rounds", parameters.rounds());
    out.put("buffered.raw.events_per_s", Math.round(rawRate));
    out.put("buffered.api.events_per_s", Math.round(apiRate));
    out.put("buffered.ratio.lowest_round", lowest);
    out.put("buffered.ratio.highest_round", highest);
    out.put("buffered.ratio", Goals.ratio(apiRate, rawRate));
    return apiRate;
  }

  private double raw(RawCql raw, int count) throws InterruptedException {
    return InFlight.send(parameters.concurrency(), batches(count).iterator(), raw::write);
  }

  private double api(TimeSeriesClient api, BufferMetrics buffer, int count) throws Exception {
    List<List<Event>> batches = batches(count);
    long before = buffer.written();
    long start = System.nanoTime();
    InFlight.send(
        parameters.concurrency(),
        batches.iterator(),
        batch ->
            api.writeEventRecords(
                    WriteEventRecordsRequest.newBuilder()
                        .setNamespace(DataPlaneBenchmark.NAMESPACE)
                        .addAllEvents(batch)
                        .build())
                .thenAccept(
                    answer -> {
                      if (answer.getQueuedCount() != batch.size()) {
                        throw new IllegalStateException("not every event was queued: " + answer);
                      }
                    }));
    long drained = buffer.awaitWritten(before + count, DRAIN_TIMEOUT);
    return (drained - start) / 1e9;
  }

  private List<List<Event>> batches(int count) {
    return events.batches("buffered-" + round++ + "-", count, parameters.batch());
  }
}
