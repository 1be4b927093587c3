package io.varve.perf.dataplane;

import io.varve.perf.measure.Figures;
import io.varve.perf.ts.EventGenerator;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * {@code burst}: {@code --burst-seconds} of fire-and-forget writes at {@code --burst-factor} times
 * the sustainable rate (the drain rate {@link BufferedPhase} measured), sent by an {@link
 * OpenLoad}. Every event is counted accepted or refused, and the accepted ones must all be written
 * ({@code burst.lost} = accepted − written, by the server's {@code
 * varve_buffer_written_events_total}). Meanwhile Cassandra's count of writes to the namespace's
 * tables ({@link CassandraWrites}) is read once a second, from the first request until the buffer
 * has written every accepted event: its per-second increments are Cassandra's write rate, whose
 * evenness ({@link RateEvenness}) is the figure. The server's counter would not do: it counts a
 * drained batch when the whole batch is written. The last, partial second is left out.
 */
final class BurstPhase {

  private static final Duration DRAIN_TIMEOUT = Duration.ofMinutes(5);

  private final DataPlaneParameters parameters;
  private final EventGenerator events;

  BurstPhase(DataPlaneParameters parameters, EventGenerator events) {
    this.parameters = parameters;
    this.events = events;
  }

  void run(
      Figures out,
      OpenLoad load,
      BufferMetrics buffer,
      CassandraWrites cassandra,
      double sustainable)
      throws Exception {
    double rate = sustainable * parameters.burstFactor();
    long before = buffer.written();
    long refusedBefore = buffer.refused();
    ExecutorService sampler = Executors.newSingleThreadExecutor();
    try {
      Sampling sampling = new Sampling(buffer, before, cassandra);
      CompletableFuture<List<Long>> perSecond =
          CompletableFuture.supplyAsync(sampling::perSecond, sampler);
      OpenLoad.Result sent = load.run(events, "burst-", rate, parameters.burstDuration());
      sampling.expect(sent.accepted());
      List<Long> counts = perSecond.join();
      long written = buffer.written() - before;
      RateEvenness evenness = RateEvenness.of(counts);
      out.put("burst.asked_events_per_s", Math.round(rate));
      out.put("burst.offered_events_per_s", Math.round(sent.offeredPerSecond()));
      out.put("burst.sent", sent.sent());
      out.put("burst.accepted", sent.accepted());
      out.put("burst.refused", sent.refused());
      out.put("burst.refused.buffer_full", buffer.refused() - refusedBefore);
      out.put("burst.failed", sent.failed());
      sent.failures().forEach((code, n) -> out.put("burst.failed." + code, n));
      out.put("burst.written", written);
      out.put("burst.lost", sent.accepted() - written);
      out.put("burst.drain_s", counts.size() + 1);
      out.put("burst.cassandra_writes.per_second", counts);
      out.put("burst.rate.mean_writes_per_s", Math.round(evenness.mean()));
      out.put("burst.rate.cv", evenness.cv());
      out.put("burst.rate.max_deviation", evenness.maxDeviation());
    } finally {
      sampler.shutdownNow();
    }
  }

  /**
   * Reads the written-events counter once a second until it reached the accepted events (known once
   * the load ended), and returns the per-second increments but the last.
   */
  private static final class Sampling {

    private final BufferMetrics buffer;
    private final long before;
    private final CassandraWrites cassandra;
    private volatile long expected = Long.MAX_VALUE;

    Sampling(BufferMetrics buffer, long before, CassandraWrites cassandra) {
      this.buffer = buffer;
      this.before = before;
      this.cassandra = cassandra;
    }

    void expect(long accepted) {
      expected = accepted;
    }

    List<Long> perSecond() {
      List<Long> counts = new ArrayList<>();
      try {
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        long last = cassandra.count();
        long next = System.nanoTime();
        while (System.nanoTime() < deadline) {
          next += 1_000_000_000L;
          Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
          long writes = cassandra.count();
          if (buffer.written() - before >= expected) {
            return counts; // the second in which the buffer emptied is partial: left out
          }
          counts.add(writes - last);
          last = writes;
        }
        throw new IllegalStateException("the burst was not written within " + DRAIN_TIMEOUT);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new IllegalStateException(e);
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
  }
}
