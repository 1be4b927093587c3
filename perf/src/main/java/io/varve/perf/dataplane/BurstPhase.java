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
import java.util.function.LongConsumer;

/**
 * {@code burst}: {@code --burst-seconds} of fire-and-forget writes at {@code --burst-factor} times
 * the sustainable rate (the drain rate {@link BufferedPhase} measured), sent by an {@link
 * OpenLoad}. Every event is counted accepted or refused, and the accepted ones must all be written
 * ({@code burst.lost} = accepted − written, by the server's {@code
 * varve_buffer_written_events_total}). Meanwhile, once a second from the first request until the
 * buffer has written every accepted event, two counts are read: the events the buffer has written
 * to Cassandra (each counted when Cassandra acknowledged its slice, at most 256 KiB of events) and
 * Cassandra's own count of writes to the namespace's tables ({@link CassandraWrites}). The evenness
 * ({@link RateEvenness}) of the first, events written per second, is the figure: the second counts
 * partitions, and the coalescing puts more events in each partition write the fuller the queue, so
 * a steady event rate shows there as a falling partition rate. Both are printed, with the
 * milliseconds of each second the server's JVM spent in collection pauses ({@code
 * jvm_gc_pause_seconds}), so that an uneven second can be told a pause of the server's collector or
 * a slow Cassandra. The evenness is judged over the drain's full seconds: from the second after the
 * first in which events were written (before it, the queue coalesces; in it, the drain starts
 * partway) to the one before the buffer emptied. During the burst and its drain the namespace's
 * {@code queueBuffering.drainRate} is {@code --burst-drain-percent} of the sustainable rate (0:
 * unpaced), and unpaced again after.
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
      double sustainable,
      LongConsumer drainRate)
      throws Exception {
    double rate = sustainable * parameters.burstFactor();
    long paced = Math.round(sustainable * parameters.burstDrainShare());
    drainRate.accept(paced);
    long before = buffer.written();
    long refusedBefore = buffer.refused();
    ExecutorService sampler = Executors.newSingleThreadExecutor();
    try {
      Sampling sampling = new Sampling(buffer, before, cassandra);
      CompletableFuture<List<long[]>> perSecond =
          CompletableFuture.supplyAsync(sampling::perSecond, sampler);
      OpenLoad.Result sent = load.run(events, "burst-", rate, parameters.burstDuration());
      sampling.expect(sent.accepted());
      List<long[]> seconds = perSecond.join();
      List<Long> events = seconds.stream().map(c -> c[0]).toList();
      List<Long> partitions = seconds.stream().map(c -> c[1]).toList();
      List<Long> pauses = seconds.stream().map(c -> c[2]).toList();
      long written = buffer.written() - before;
      int first = 0;
      while (first < events.size() && events.get(first) == 0) {
        first++;
      }
      int from = Math.min(events.size(), first + 1);
      RateEvenness evenness = RateEvenness.of(events.subList(from, events.size()));
      RateEvenness partitionEvenness = RateEvenness.of(partitions.subList(from, events.size()));
      out.put("burst.drain_rate", paced);
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
      out.put("burst.drain_s", seconds.size() + 1);
      out.put("burst.events_written.per_second", events);
      out.put("burst.rate.judged_seconds", evenness.seconds());
      out.put("burst.rate.mean_events_per_s", Math.round(evenness.mean()));
      out.put("burst.rate.cv", evenness.cv());
      out.put("burst.rate.max_deviation", evenness.maxDeviation());
      out.put("burst.cassandra_writes.per_second", partitions);
      out.put("burst.cassandra_writes.cv", partitionEvenness.cv());
      out.put("burst.cassandra_writes.max_deviation", partitionEvenness.maxDeviation());
      out.put("burst.server_gc_pause_ms.per_second", pauses);
      out.put(
          "burst.server_gc_pause_ms.max_per_second",
          pauses.stream().mapToLong(p -> p).max().orElse(0));
    } finally {
      sampler.shutdownNow();
      drainRate.accept(0);
    }
  }

  /**
   * Reads the written-events counter and Cassandra's write count once a second until the first
   * reached the accepted events (known once the load ended), and returns the rates of both over
   * each interval between reads, with the server's collection pauses in it ({@code [events,
   * partition writes, milliseconds paused]} per second), but the last.
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

    List<long[]> perSecond() {
      List<long[]> counts = new ArrayList<>();
      try {
        long deadline = System.nanoTime() + DRAIN_TIMEOUT.toNanos();
        long lastWrites = cassandra.count();
        long lastAt = System.nanoTime();
        BufferMetrics.Reading last = buffer.read();
        lastAt = (lastAt + System.nanoTime()) / 2;
        long next = System.nanoTime();
        while (System.nanoTime() < deadline) {
          next += 1_000_000_000L;
          Thread.sleep(Math.max(0, (next - System.nanoTime()) / 1_000_000));
          long at = System.nanoTime();
          BufferMetrics.Reading reading = buffer.read();
          at = (at + System.nanoTime()) / 2; // when the server counted, about
          long writes = cassandra.count();
          if (reading.written() - before >= expected) {
            return counts; // the second in which the buffer emptied is partial: left out
          }
          // per second of the time between the two reads, not per sleep: a read answered late
          // (a busy server, a pause of this process) must not move events into the next second
          double seconds = (at - lastAt) / 1e9;
          counts.add(
              new long[] {
                Math.round((reading.written() - last.written()) / seconds),
                Math.round((writes - lastWrites) / seconds),
                Math.round((reading.gcPauseSeconds() - last.gcPauseSeconds()) * 1000 / seconds)
              });
          last = reading;
          lastWrites = writes;
          lastAt = at;
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
