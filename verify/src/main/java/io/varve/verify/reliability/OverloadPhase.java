package io.varve.verify.reliability;

import io.varve.local.LocalServerException;
import io.varve.local.server.LocalVarveServer;
import io.varve.local.server.ServerMetrics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.Random;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Overload: first the server's sustainable write rate is measured by closed-loop writers (each
 * sends its next batch when the previous one is answered), then an open-loop client sends batches
 * at {@code factor} times that rate, whatever the answers, for the phase's duration, while a
 * 1-event read is issued every 100 ms on a connection of its own. The server must refuse what it
 * cannot take (429 / RESOURCE_EXHAUSTED) and nothing else: no 5xx, no other error status, no
 * connection dropped or left unanswered; its resident memory must stay within its heap plus an
 * allowance; the small read's p99 must stay within a limit.
 */
final class OverloadPhase implements Phase {

  private static final int CALIBRATION_WRITERS = 8;
  private static final int SERIES = 64;
  private static final int BODY_POOL = 16;

  private final Settings settings;

  /**
   * The phase's knobs: durations, the load factor, the shape of a batch, the client's cap on
   * requests in flight (beyond it a scheduled request is counted as skipped, not sent), and the
   * pass bounds.
   */
  record Settings(
      Duration calibration,
      Duration duration,
      int factor,
      int batchEvents,
      int valueBytes,
      int maxInFlight,
      long rssAllowanceMb,
      long readP99LimitMs) {}

  OverloadPhase(Settings settings) {
    this.settings = settings;
  }

  @Override
  public String name() {
    return "overload";
  }

  @Override
  public void run(VerifyEnvironment env, Results results) throws Exception {
    VarveClient client = env.client();
    String namespace = env.namespace("overload");
    client.createNamespace(namespace);
    byte[] smallRead = prepareSmallRead(client, namespace);
    List<byte[]> bodies = bodies(namespace);
    results.put(
        name() + ".batch",
        settings.batchEvents()
            + " events x "
            + settings.valueBytes()
            + " B ("
            + bodies.get(0).length / 1024
            + " KiB of JSON)");

    long heapMb = RssSampler.megabytes(env.server().settings().heapSize());
    long boundMb = heapMb + settings.rssAllowanceMb();
    try (RssSampler rss = new RssSampler(env.server().status().pid())) {
      double sustainable = calibrate(client, bodies);
      results.put(name() + ".sustainable_events_per_s", sustainable);
      results.put(name() + ".sustainable_mb_per_s", sustainable * settings.valueBytes() / 1e6);
      if (sustainable <= 0) {
        results.fail(
            name() + ".sustainable_events_per_s", "no batch was written in the calibration");
        return;
      }
      double targetRequestsPerSecond = settings.factor() * sustainable / settings.batchEvents();
      results.put(name() + ".target_events_per_s", settings.factor() * sustainable);
      results.put(name() + ".target_requests_per_s", targetRequestsPerSecond);

      StatusCounts writes = new StatusCounts();
      StatusCounts reads = new StatusCounts();
      Recorder readLatency = new Recorder(3);
      ServerMetrics before = scrapeOrNull(env, results);
      AtomicBoolean reading = new AtomicBoolean(true);
      Thread reader = smallReader(env, smallRead, reads, readLatency, reading);
      long[] sentAndSkipped = openLoop(client, bodies, targetRequestsPerSecond, writes);
      reading.set(false);
      reader.join(60_000);
      rss.close();

      Histogram latency = readLatency.getIntervalHistogram();
      results.put(name() + ".requests_sent", sentAndSkipped[0]);
      results.put(name() + ".client_skipped", sentAndSkipped[1]);
      results.put(name() + ".status_200", writes.ok());
      results.put(name() + ".status_429", writes.refused());
      results.put(name() + ".status_5xx", writes.serverErrors());
      results.put(name() + ".status_other", writes.other());
      results.put(name() + ".timeouts", writes.timeouts());
      results.put(name() + ".connections_dropped", writes.dropped());
      results.put(name() + ".transport_failures", writes.transportCauses());
      results.put(name() + ".server_rss_max_mb", rss.maxBytes() / (1024 * 1024));
      results.put(
          name() + ".server_rss_bound_mb",
          boundMb + " (heap " + heapMb + " + allowance " + settings.rssAllowanceMb() + ")");
      results.put(name() + ".small_reads", latency.getTotalCount());
      results.put(name() + ".small_read_status_429", reads.refused());
      results.put(
          name() + ".small_read_errors",
          reads.serverErrors() + reads.otherCount() + reads.transportErrors());
      results.put(name() + ".small_read_p50_ms", latency.getValueAtPercentile(50) / 1000.0);
      results.put(name() + ".small_read_p99_ms", latency.getValueAtPercentile(99) / 1000.0);
      results.put(name() + ".small_read_max_ms", latency.getMaxValue() / 1000.0);
      reportServerSide(env, results, before);
      boolean alive = healthyWithin(env.server(), Duration.ofSeconds(30));
      results.put(name() + ".server_healthy_after", alive);

      results.check(name() + ".status_5xx", writes.serverErrors() == 0, "0");
      results.check(name() + ".status_other", writes.otherCount() == 0, "none (only 200 or 429)");
      results.check(
          name() + ".timeouts", writes.timeouts() == 0, "0 (every request answered within 30 s)");
      results.check(
          name() + ".connections_dropped",
          writes.dropped() == 0,
          "0 (no connection refused or closed without an answer)");
      results.check(
          name() + ".server_rss_max_mb",
          rss.maxBytes() > 0 && rss.maxBytes() <= boundMb * 1024 * 1024,
          "<= " + boundMb);
      results.check(
          name() + ".small_read_errors",
          reads.serverErrors() + reads.otherCount() + reads.transportErrors() == 0,
          "0");
      results.check(
          name() + ".small_read_p99_ms",
          latency.getTotalCount() > 0
              && latency.getValueAtPercentile(99) <= settings.readP99LimitMs() * 1000,
          "<= " + settings.readP99LimitMs());
      results.check(
          name() + ".server_healthy_after",
          alive,
          "true (/health answers 200 within 30 s of the end)");
    }
  }

  /**
   * Where the small reads' time went, from the server's metrics: its own time per read and the
   * Cassandra reads' time, from their histograms' buckets since {@code before} (the load's start;
   * null: since the server started). The client's latency also holds its share of the CPU, which
   * the load it generates takes. Reported, not checked; a scrape that fails is reported as such.
   */
  private void reportServerSide(VerifyEnvironment env, Results results, ServerMetrics before)
      throws InterruptedException {
    try {
      ServerMetrics server = ServerMetrics.scrape(env.server());
      Map<String, String> read = Map.of("method", "ReadEventRecords", "http_status", "200");
      results.put(
          name() + ".server_read_p50_p99_ms",
          quantileMs(server, before, "varve_api_total_duration_seconds", 0.5, read)
              + " / "
              + quantileMs(server, before, "varve_api_total_duration_seconds", 0.99, read));
      Map<String, String> cql = Map.of("operation", "read", "outcome", "success");
      results.put(
          name() + ".cassandra_read_p50_p99_ms",
          quantileMs(server, before, "varve_cassandra_requests_seconds", 0.5, cql)
              + " / "
              + quantileMs(server, before, "varve_cassandra_requests_seconds", 0.99, cql));
    } catch (java.io.IOException e) {
      results.put(name() + ".server_read_p50_p99_ms", "n/a (/metrics: " + e + ")");
    }
  }

  /**
   * The server's metrics before the load, or null when they cannot be read: the report then says
   * that its server-side figures count from the server's start.
   */
  private ServerMetrics scrapeOrNull(VerifyEnvironment env, Results results)
      throws InterruptedException {
    try {
      return ServerMetrics.scrape(env.server());
    } catch (java.io.IOException e) {
      results.put(
          name() + ".server_side_since",
          "the server's start (/metrics before the load: " + e + ")");
      return null;
    }
  }

  /**
   * A quantile of a histogram in milliseconds over the calls since {@code before}, written for a
   * report ("n/a" when there were none).
   */
  private static String quantileMs(
      ServerMetrics server,
      ServerMetrics before,
      String metric,
      double quantile,
      Map<String, String> labels) {
    OptionalDouble seconds = server.histogramQuantile(metric, quantile, labels, before);
    return seconds.isPresent()
        ? String.format(Locale.ROOT, "%.1f", seconds.getAsDouble() * 1000)
        : "n/a";
  }

  /**
   * Whether the server answers {@code /health} with 200 within the timeout once the load has
   * stopped.
   */
  private static boolean healthyWithin(LocalVarveServer server, Duration timeout) {
    try {
      server.awaitReady(timeout);
      return true;
    } catch (LocalServerException e) {
      return false; // gone, or not answering in time
    }
  }

  /** Writes the one event the small reads read, and returns the read's body. */
  private static byte[] prepareSmallRead(VarveClient client, String namespace) throws Exception {
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    TestEvent event =
        new TestEvent(
            "small", now, UUID.randomUUID().toString(), "small".getBytes(StandardCharsets.UTF_8));
    VarveClient.Answer answer =
        client.post(
            "WriteEventRecordsSync",
            TestEvent.writeRequest(namespace, List.of(event)).getBytes(StandardCharsets.UTF_8),
            Duration.ofSeconds(30));
    if (!answer.ok() || VarveClient.writtenIndexes(answer.body()).cardinality() != 1) {
      throw new IllegalStateException(
          "writing the small-read event answered " + answer.status() + ": " + answer.body());
    }
    return ("{\"namespace\":\""
            + namespace
            + "\",\"timeSeriesId\":\"small\",\"timeInterval\":{\"start\":\""
            + now.minus(1, ChronoUnit.HOURS)
            + "\",\"end\":\""
            + now.plus(1, ChronoUnit.HOURS)
            + "\"},\"pageSize\":1}")
        .getBytes(StandardCharsets.UTF_8);
  }

  /** A pool of distinct request bodies, built once: sending must cost the client little. */
  private List<byte[]> bodies(String namespace) {
    Random random = new Random(42);
    Instant now = Instant.now().truncatedTo(ChronoUnit.MILLIS);
    List<byte[]> bodies = new ArrayList<>();
    for (int b = 0; b < BODY_POOL; b++) {
      List<TestEvent> events = new ArrayList<>();
      for (int i = 0; i < settings.batchEvents(); i++) {
        byte[] value = new byte[settings.valueBytes()];
        random.nextBytes(value);
        events.add(
            new TestEvent(
                "load-" + random.nextInt(SERIES), now, UUID.randomUUID().toString(), value));
      }
      bodies.add(TestEvent.writeRequest(namespace, events).getBytes(StandardCharsets.UTF_8));
    }
    return bodies;
  }

  /** Closed loop: events written per second by a few writers that each wait for their answer. */
  private double calibrate(VarveClient client, List<byte[]> bodies) throws InterruptedException {
    AtomicLong written = new AtomicLong();
    long end = System.nanoTime() + settings.calibration().toNanos();
    List<Thread> threads = new ArrayList<>();
    for (int w = 0; w < CALIBRATION_WRITERS; w++) {
      int first = w;
      Thread thread =
          new Thread(
              () -> {
                for (int n = first; System.nanoTime() < end; n += CALIBRATION_WRITERS) {
                  try {
                    VarveClient.Answer answer =
                        client.post(
                            "WriteEventRecordsSync",
                            bodies.get(n % bodies.size()),
                            Duration.ofSeconds(60));
                    if (answer.ok()) {
                      written.addAndGet(VarveClient.writtenIndexes(answer.body()).cardinality());
                    }
                  } catch (Exception e) {
                    return;
                  }
                }
              },
              "verify-calibration-" + w);
      threads.add(thread);
      thread.start();
    }
    long started = System.nanoTime();
    for (Thread thread : threads) {
      thread.join();
    }
    return written.get() / ((System.nanoTime() - started) / 1e9);
  }

  /**
   * Open loop: a request every {@code 1/rate} seconds on a fixed schedule, sent without waiting for
   * earlier answers. Returns {requests sent, requests skipped because {@code maxInFlight} were
   * outstanding}.
   */
  private long[] openLoop(
      VarveClient client, List<byte[]> bodies, double requestsPerSecond, StatusCounts counts)
      throws InterruptedException {
    long intervalNanos = (long) (1e9 / requestsPerSecond);
    AtomicInteger inFlight = new AtomicInteger();
    long sent = 0;
    long skipped = 0;
    long start = System.nanoTime();
    long end = start + settings.duration().toNanos();
    for (long n = 0; ; n++) {
      long intended = start + n * intervalNanos;
      if (intended >= end) {
        break;
      }
      long wait = intended - System.nanoTime();
      if (wait > 0) {
        TimeUnit.NANOSECONDS.sleep(wait);
      }
      if (inFlight.get() >= settings.maxInFlight()) {
        skipped++;
        continue;
      }
      inFlight.incrementAndGet();
      sent++;
      client
          .postAsync(
              "WriteEventRecordsSync",
              bodies.get((int) (n % bodies.size())),
              Duration.ofSeconds(30))
          .whenComplete(
              (answer, failure) -> {
                if (failure != null) {
                  counts.recordTransportError(failure);
                } else {
                  counts.record(answer.status());
                }
                inFlight.decrementAndGet();
              });
    }
    long drainDeadline = System.nanoTime() + Duration.ofSeconds(45).toNanos();
    while (inFlight.get() > 0 && System.nanoTime() < drainDeadline) {
      Thread.sleep(100);
    }
    return new long[] {sent, skipped};
  }

  /** A 1-event read every 100 ms on a client of its own, its latency recorded in microseconds. */
  private static Thread smallReader(
      VerifyEnvironment env,
      byte[] body,
      StatusCounts counts,
      Recorder latency,
      AtomicBoolean reading) {
    VarveClient client = env.client();
    Thread thread =
        new Thread(
            () -> {
              while (reading.get()) {
                long started = System.nanoTime();
                try {
                  VarveClient.Answer answer =
                      client.post("ReadEventRecords", body, Duration.ofSeconds(30));
                  counts.record(answer.status());
                } catch (InterruptedException e) {
                  return;
                } catch (Exception e) {
                  counts.recordTransportError(e);
                }
                long micros = (System.nanoTime() - started) / 1000;
                latency.recordValue(Math.max(1, micros));
                try {
                  Thread.sleep(Math.max(0, 100 - micros / 1000));
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "verify-small-read");
    thread.setDaemon(true);
    thread.start();
    return thread;
  }
}
