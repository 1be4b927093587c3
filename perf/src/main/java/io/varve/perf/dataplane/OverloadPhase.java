package io.varve.perf.dataplane;

import io.varve.client.TimeSeriesClient;
import io.varve.perf.measure.Figures;
import io.varve.perf.ts.EventGenerator;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;

/**
 * {@code overload}: {@code --overload-seconds} of fire-and-forget writes at {@code
 * --overload-factor} times the sustainable rate. Meanwhile the server process's resident memory is
 * read every 200 ms and its {@code varve_buffer_bytes} every second, and one closed-loop reader
 * times {@code ReadEventRecords} of the probe series (a few events). Figures: the refusals ({@code
 * RESOURCE_EXHAUSTED}), the largest RSS against {@link #limitBytes its limit}, the read's latencies
 * during the flood. Then the phase waits until the buffer has written what it accepted, so that the
 * next phase starts on an idle server.
 */
final class OverloadPhase {

  /**
   * What the server's RSS may exceed its configured buffers by, beyond its RSS before the flood:
   * room for the garbage collector to work in (the buffer's events are estimated, not measured) and
   * for the direct memory of requests being read.
   */
  static final long MARGIN_BYTES = 256L << 20;

  private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);

  private final DataPlaneParameters parameters;
  private final EventGenerator events;

  OverloadPhase(DataPlaneParameters parameters, EventGenerator events) {
    this.parameters = parameters;
    this.events = events;
  }

  /**
   * The RSS the server must stay under: its RSS before the flood, plus what admission lets requests
   * and buffers hold ({@code writeBytes} + {@code bufferedWriteBytes}), plus {@link #MARGIN_BYTES}.
   */
  static long limitBytes(long baseline, long admittedBytes) {
    return baseline + admittedBytes + MARGIN_BYTES;
  }

  void run(
      Figures out,
      OpenLoad load,
      BufferMetrics buffer,
      TimeSeriesClient reads,
      long serverPid,
      double sustainable)
      throws Exception {
    long baseline = Rss.bytes(serverPid);
    long before = buffer.written();
    long refusedBefore = buffer.refused();
    AtomicBoolean flooding = new AtomicBoolean(true);
    AtomicLong maxRss = new AtomicLong(baseline);
    AtomicLong maxBuffer = new AtomicLong();
    Thread sampler =
        thread(
            "overload-memory",
            () -> {
              for (int tick = 0; flooding.get(); tick++) {
                maxRss.accumulateAndGet(Rss.bytes(serverPid), Math::max);
                if (tick % 5 == 0) {
                  maxBuffer.accumulateAndGet((long) buffer.read().bytes(), Math::max);
                }
                Thread.sleep(200);
              }
            });
    Histogram micros = new Histogram(600_000_000L, 3);
    AtomicLong readErrors = new AtomicLong();
    Thread reader =
        thread(
            "overload-reader",
            () -> {
              while (flooding.get()) {
                long start = System.nanoTime();
                try {
                  ProbeSeries.read(reads);
                  micros.recordValue(Math.max(1, (System.nanoTime() - start) / 1000));
                } catch (RuntimeException e) {
                  readErrors.incrementAndGet();
                }
              }
            });
    double rate = sustainable * parameters.overloadFactor();
    OpenLoad.Result sent;
    try {
      sent = load.run(events, "overload-", rate, parameters.overloadDuration());
    } finally {
      flooding.set(false);
      reader.join();
      sampler.join();
    }
    long limit =
        limitBytes(baseline, DataPlaneBenchmark.BUFFER_BYTES + DataPlaneBenchmark.WRITE_BYTES);
    out.put("overload.asked_events_per_s", Math.round(rate));
    out.put("overload.offered_events_per_s", Math.round(sent.offeredPerSecond()));
    out.put("overload.sent", sent.sent());
    out.put("overload.accepted", sent.accepted());
    out.put("overload.refused", sent.refused());
    out.put("overload.refused.buffer_full", buffer.refused() - refusedBefore);
    out.put("overload.failed", sent.failed());
    sent.failures().forEach((code, n) -> out.put("overload.failed." + code, n));
    out.put("overload.buffer.max_mib", Rss.mib(maxBuffer.get()));
    out.put("overload.rss.before_mib", Rss.mib(baseline));
    out.put("overload.rss.max_mib", Rss.mib(maxRss.get()));
    out.put("overload.rss.limit_mib", Rss.mib(limit));
    out.put("overload.rss.ratio", (double) maxRss.get() / limit);
    out.put("overload.read.count", micros.getTotalCount());
    out.put("overload.read.errors", readErrors.get());
    out.latency("overload.read", micros);
    long start = System.nanoTime();
    buffer.awaitWritten(before + sent.accepted(), DRAIN_TIMEOUT);
    out.put("overload.drain_s", (System.nanoTime() - start) / 1e9);
  }

  /** A body that may throw, run on a thread of its own; its failure is printed, not lost. */
  interface Body {
    void run() throws Exception;
  }

  private static Thread thread(String name, Body body) {
    Thread thread =
        new Thread(
            () -> {
              try {
                body.run();
              } catch (Exception e) {
                throw new IllegalStateException(name + " failed", e);
              }
            },
            name);
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
