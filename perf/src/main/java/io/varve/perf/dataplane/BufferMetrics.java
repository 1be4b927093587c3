package io.varve.perf.dataplane;

import io.varve.local.server.ServerMetrics;
import java.io.IOException;
import java.net.URI;
import java.time.Duration;

/**
 * The server's fire-and-forget buffer as its {@code /metrics} shows it, summed over namespaces:
 * events written to Cassandra ({@code varve_buffer_written_events_total}, whose rate is the drain
 * rate), events queued, bytes held, events dropped, events refused because a queue was full (the
 * other refusals are admission control's), and the time the server's JVM spent in collection pauses
 * ({@code jvm_gc_pause_seconds_sum}).
 */
final class BufferMetrics {

  private static final Duration POLL = Duration.ofMillis(50);

  private final URI server;

  BufferMetrics(URI server) {
    this.server = server;
  }

  /** One reading of the buffer's metrics. */
  record Reading(
      double written,
      double queued,
      double bytes,
      double dropped,
      double refused,
      double gcPauseSeconds) {}

  Reading read() throws IOException, InterruptedException {
    ServerMetrics metrics = ServerMetrics.scrape(server);
    return new Reading(
        metrics.sum("varve_buffer_written_events_total"),
        metrics.sum("varve_buffer_queue_events"),
        metrics.sum("varve_buffer_bytes"),
        metrics.sum("varve_buffer_dropped_events_total"),
        metrics.sum("varve_buffer_refused_events_total"),
        metrics.sum("jvm_gc_pause_seconds_sum"));
  }

  /** Events refused because a queue or the buffers were full, since the server started. */
  long refused() throws IOException, InterruptedException {
    return (long) read().refused();
  }

  /** Events written to Cassandra since the server started. */
  long written() throws IOException, InterruptedException {
    return (long) read().written();
  }

  /**
   * Waits until {@code target} events have been written since the server started; returns {@link
   * System#nanoTime()} when the reading showed it. Fails if events were dropped or after {@code
   * timeout}.
   */
  long awaitWritten(long target, Duration timeout) throws IOException, InterruptedException {
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Reading reading = read();
      long now = System.nanoTime();
      if (reading.dropped() > 0) {
        throw new IllegalStateException(
            "the server dropped " + (long) reading.dropped() + " buffered events (see its log)");
      }
      if (reading.written() >= target) {
        return now;
      }
      if (now > deadline) {
        throw new IllegalStateException(
            "the buffer wrote "
                + (long) reading.written()
                + " of "
                + target
                + " events in "
                + timeout.toSeconds()
                + " s");
      }
      Thread.sleep(POLL.toMillis());
    }
  }
}
