package io.varve.perf.search;

import io.varve.api.timeseries.v1.BooleanQuery;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.api.timeseries.v1.SearchQuery;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.TimeSeriesClient;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.Figures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;

/**
 * Phase 4 of {@code varve perf search}: index lag. Writes {@code probes} single events, one every
 * {@code probeIntervalMs}, each with a unique {@code probe} value, beside a background load of
 * {@code backgroundRate} events/s. One poller searches every {@value #POLL_MILLIS} ms for all
 * probes not found yet (an OR of their values); a probe's lag is from its write's acknowledgement
 * to the answer that first holds it. A probe not found within 30 s counts as lost.
 */
final class IndexLagPhase {

  static final int POLL_MILLIS = 20;
  private static final int MAX_OUTSTANDING_PROBES = 100;
  private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  private final Environment environment;
  private final SearchParameters parameters;
  private final TimeSeriesClient api;

  /**
   * Probes written and not found yet: their value and the {@link System#nanoTime()} of their
   * acknowledgement.
   */
  private final Map<String, Long> outstanding = new ConcurrentHashMap<>();

  private final Histogram lag = new Histogram(600_000_000L, 3);
  private final AtomicLong lost = new AtomicLong();
  private final AtomicLong backgroundEvents = new AtomicLong();
  private final AtomicInteger written = new AtomicInteger();
  private final AtomicReference<Exception> failure = new AtomicReference<>();

  IndexLagPhase(Environment environment, SearchParameters parameters, TimeSeriesClient api) {
    this.environment = environment;
    this.parameters = parameters;
    this.api = api;
  }

  void run(Figures out, SearchEvents data) throws Exception {
    int probes = parameters.probes();
    environment.progress(
        "index lag: "
            + probes
            + " probes, one every "
            + parameters.probeIntervalMs()
            + " ms, beside "
            + parameters.backgroundRate()
            + " background events/s");
    long phaseStart = System.currentTimeMillis();
    String run = Long.toString(phaseStart, 36);
    ScheduledExecutorService background =
        Executors.newSingleThreadScheduledExecutor(LatencyRun.daemon("perf-search-background"));
    if (parameters.backgroundRate() > 0) {
      int perTick = Math.max(1, parameters.backgroundRate() / 10);
      long tickMicros = 1_000_000L * perTick / parameters.backgroundRate();
      background.scheduleAtFixedRate(
          () -> {
            try {
              long now = System.currentTimeMillis();
              WriteEventRecordsRequest.Builder request =
                  WriteEventRecordsRequest.newBuilder().setNamespace(SearchNamespace.NAME);
              for (int k = 0; k < perTick; k++) {
                request.addEvents(
                    data.extra("bg-" + run + "-" + backgroundEvents.getAndIncrement(), now, null));
              }
              ApiCalls.write(api, request.build());
            } catch (Exception e) {
              failure.compareAndSet(null, e);
            }
          },
          0,
          tickMicros,
          TimeUnit.MICROSECONDS);
    }
    TimeInterval window = ApiCalls.interval(phaseStart - 60_000, phaseStart + SearchBenchmark.HOUR);
    Thread poller = new Thread(() -> poll(window, run), "perf-search-poller");
    poller.setDaemon(true);
    poller.start();
    try {
      long start = System.nanoTime();
      for (int i = 0; i < probes && failure.get() == null; i++) {
        while (outstanding.size() >= MAX_OUTSTANDING_PROBES && failure.get() == null) {
          Thread.sleep(1);
        }
        String value = "p-" + run + "-" + i;
        ApiCalls.write(
            api,
            WriteEventRecordsRequest.newBuilder()
                .setNamespace(SearchNamespace.NAME)
                .addEvents(data.extra(value, System.currentTimeMillis(), value))
                .build());
        outstanding.put(value, System.nanoTime());
        written.incrementAndGet();
        long sleep =
            start + (i + 1) * parameters.probeIntervalMs() * 1_000_000L - System.nanoTime();
        if (sleep > 0) {
          TimeUnit.NANOSECONDS.sleep(sleep);
        }
      }
      written.set(probes);
      poller.join(PROBE_TIMEOUT.toMillis() + 60_000);
    } finally {
      background.shutdownNow();
      poller.interrupt();
    }
    if (failure.get() != null) {
      throw failure.get();
    }
    out.put("index_lag_probes", lag.getTotalCount());
    out.put("index_lag_lost", lost.get());
    out.put("index_lag_p50_ms", lag.getValueAtPercentile(50) / 1000.0);
    out.put("index_lag_p99_ms", lag.getValueAtPercentile(99) / 1000.0);
    out.put("index_lag_max_ms", lag.getMaxValue() / 1000.0);
    out.put("index_lag_background_events", backgroundEvents.get());
  }

  /**
   * The poller: until every probe was written and found or lost, searches for the outstanding ones.
   */
  private void poll(TimeInterval window, String run) {
    try {
      while (written.get() < parameters.probes() || !outstanding.isEmpty()) {
        long tick = System.nanoTime();
        if (!outstanding.isEmpty()) {
          searchOutstanding(window, run);
        }
        long sleep = POLL_MILLIS * 1_000_000L - (System.nanoTime() - tick);
        if (sleep > 0) {
          TimeUnit.NANOSECONDS.sleep(sleep);
        }
      }
    } catch (Exception e) {
      failure.compareAndSet(null, e);
    }
  }

  /**
   * One search for every outstanding probe; records the lag of those found and gives up on those
   * too old.
   */
  private void searchOutstanding(TimeInterval window, String run) {
    List<String> values = new ArrayList<>(outstanding.keySet());
    BooleanQuery.Builder or = BooleanQuery.newBuilder().setOperator("OR");
    values.forEach(v -> or.addSearchQuery(ApiCalls.equals(SearchEvents.PROBE, v)));
    SearchEventRecordsRequest request =
        SearchEventRecordsRequest.newBuilder()
            .setNamespace(SearchNamespace.NAME)
            .setTimeInterval(window)
            .setSearchQuery(SearchQuery.newBuilder().setBooleanQuery(or))
            .setPageSize(MAX_OUTSTANDING_PROBES)
            .build();
    SearchEventRecordsResponse response = ApiCalls.search(api, request);
    long found = System.nanoTime();
    for (Event event : response.getEventsList()) {
      String probe = SearchEvents.item(event, SearchEvents.PROBE);
      Long ack = probe == null ? null : outstanding.remove(probe);
      if (ack != null) {
        lag.recordValue(Math.max(1, (found - ack) / 1000));
      } else if (probe == null || !probe.startsWith("p-" + run + "-")) {
        throw ApiCalls.wrongResult(
            "an event that is not a probe of this run", "SearchEventRecords", request, response);
      }
    }
    outstanding
        .entrySet()
        .removeIf(
            e -> {
              if (found - e.getValue() > PROBE_TIMEOUT.toNanos()) {
                lost.incrementAndGet();
                return true;
              }
              return false;
            });
  }
}
