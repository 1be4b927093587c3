package io.varve.perf.search;

import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregationQuery;
import io.varve.api.timeseries.v1.CountAggregation;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.TimeSeriesClient;
import io.varve.local.server.ServerMetrics;
import io.varve.perf.environment.Environment;
import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Figures;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Phase 1 of {@code varve perf search}: the N events of the data set written by K writers ({@code
 * WriteEventRecordsSync}, one request in flight each), and the primary write rate beside the
 * indexing throughput: N / time from the first write until {@code AggregateEventRecords} counts all
 * N. The count is asked only once the server's {@code varve_index_indexed_events_total} reached N,
 * so that it never races the creation of an index. A dropped, failed or skipped event, or indexing
 * that stalls, fails the run.
 */
final class WriteAndIndexPhase {

  private static final Duration STALL_TIMEOUT = Duration.ofSeconds(90);

  private final Environment environment;
  private final SearchParameters parameters;
  private final TimeSeriesClient api;
  private final IndexMetrics metrics;

  WriteAndIndexPhase(
      Environment environment,
      SearchParameters parameters,
      TimeSeriesClient api,
      IndexMetrics metrics) {
    this.environment = environment;
    this.parameters = parameters;
    this.api = api;
    this.metrics = metrics;
  }

  void run(Figures out, SearchEvents data, long dataFrom, long dataEnd, CpuMeter cpu)
      throws Exception {
    int events = parameters.events();
    List<List<Event>> batches = data.batches(parameters.batch());
    AggregateEventRecordsRequest countAll =
        AggregateEventRecordsRequest.newBuilder()
            .setNamespace(SearchNamespace.NAME)
            .setTimeInterval(
                ApiCalls.interval(dataFrom - SearchBenchmark.HOUR, dataEnd + SearchBenchmark.HOUR))
            .setAggregationQuery(
                AggregationQuery.newBuilder().setCount(CountAggregation.getDefaultInstance()))
            .build();
    environment.progress(
        "writing "
            + events
            + " events with "
            + parameters.writers()
            + " writers, and waiting until all are indexed");
    AtomicInteger next = new AtomicInteger();
    AtomicLong acknowledged = new AtomicLong();
    AtomicLong lastAck = new AtomicLong();
    ExecutorService pool =
        Executors.newFixedThreadPool(parameters.writers(), LatencyRun.daemon("perf-search-writer"));
    Map<String, Duration> cpuBefore = cpu.sample();
    long start = System.nanoTime();
    List<Future<?>> running = new ArrayList<>();
    try {
      for (int w = 0; w < parameters.writers(); w++) {
        running.add(
            pool.submit(
                () -> {
                  for (int i = next.getAndIncrement();
                      i < batches.size();
                      i = next.getAndIncrement()) {
                    WriteEventRecordsRequest request =
                        WriteEventRecordsRequest.newBuilder()
                            .setNamespace(SearchNamespace.NAME)
                            .addAllEvents(batches.get(i))
                            .build();
                    ApiCalls.write(api, request);
                    acknowledged.addAndGet(request.getEventsCount());
                    lastAck.accumulateAndGet(System.nanoTime(), Math::max);
                  }
                  return null;
                }));
      }
      Timeline timeline = awaitSearchable(running, lastAck, start, countAll);
      Map<String, Duration> cpuUsed = new LinkedHashMap<>();
      cpu.accumulate(cpuBefore, cpuUsed);
      double writeSeconds = (timeline.writesDone() - start) / 1e9;
      double indexSeconds = (timeline.searchable() - start) / 1e9;
      out.put("write_events", acknowledged.get());
      out.put("write_seconds", writeSeconds);
      out.put("write_events_per_s", acknowledged.get() / writeSeconds);
      out.put("index_seconds", indexSeconds);
      out.put("index_events_per_s", events / indexSeconds);
      out.put("index_store_acknowledged_events_per_s", events / ((timeline.acked() - start) / 1e9));
      out.put(
          "index_searchable_after_writes_ms",
          Math.max(0, timeline.searchable() - timeline.writesDone()) / 1e6);
      out.put("index_queue_max_events", timeline.maxQueue());
      cpuUsed.forEach(
          (name, d) ->
              out.put("write_index_cpu_ms_per_1k_events." + name, d.toMillis() * 1000.0 / events));
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * When the writes were done, the index store had acknowledged every event (the server's counter),
   * and a count of the index found them all ({@link System#nanoTime()}); and the longest index
   * queue seen on the way.
   */
  private record Timeline(long writesDone, long acked, long searchable, long maxQueue) {}

  /**
   * Follows the writers and the indexing until every event is searchable; fails on a lost event or
   * a stall.
   */
  private Timeline awaitSearchable(
      List<Future<?>> running,
      AtomicLong lastAck,
      long start,
      AggregateEventRecordsRequest countAll)
      throws Exception {
    int events = parameters.events();
    // The server's counter of events the index store acknowledged is read until it reaches N; only
    // then
    // is the index searched (a count of every event) until it holds all N: the indices exist by
    // then.
    long writesDone = -1;
    long acked = -1;
    long searchable = -1;
    long indexedSoFar = 0;
    long lastChange = System.nanoTime();
    long maxQueue = 0;
    while (writesDone < 0 || searchable < 0) {
      if (writesDone < 0 && running.stream().allMatch(Future::isDone)) {
        for (Future<?> f : running) {
          try {
            f.get();
          } catch (ExecutionException e) {
            throw e.getCause() instanceof Exception cause ? cause : e;
          }
        }
        writesDone = lastAck.get();
        environment.progress(
            String.format(Locale.ROOT, "writes done in %.1f s", (writesDone - start) / 1e9));
      }
      long t = System.nanoTime();
      if (acked < 0) {
        ServerMetrics now = metrics.read();
        maxQueue = Math.max(maxQueue, (long) now.sum("varve_index_queue_events"));
        long indexed = (long) now.sum("varve_index_indexed_events_total");
        long lost =
            (long)
                (now.sum("varve_index_dropped_events_total")
                    + now.sum("varve_index_failed_events_total")
                    + now.sum("varve_index_skipped_events_total"));
        if (lost > 0) {
          throw new IllegalStateException(
              "the server did not index "
                  + lost
                  + " events (its index metrics: "
                  + metrics.describeIndexing()
                  + "); with dropped events, raise --queue-capacity");
        }
        if (indexed != indexedSoFar) {
          indexedSoFar = indexed;
          lastChange = t;
        }
        if (indexed >= events) {
          acked = t;
          environment.progress(
              String.format(
                  Locale.ROOT,
                  "all events acknowledged by the index store after %.1f s",
                  (acked - start) / 1e9));
        }
      }
      if (acked >= 0) {
        long c = ApiCalls.count(api, countAll);
        if (c > events) {
          throw new IllegalStateException(
              "wrong result: the index counts "
                  + c
                  + " events, more than the "
                  + events
                  + " written\nrequest: AggregateEventRecords "
                  + ApiCalls.json(countAll));
        }
        if (c == events) {
          searchable = System.nanoTime();
          environment.progress(
              String.format(
                  Locale.ROOT, "all events searchable after %.1f s", (searchable - start) / 1e9));
        } else if (t - acked > STALL_TIMEOUT.toNanos()) {
          throw new IllegalStateException(
              "the index counts "
                  + c
                  + " of "
                  + events
                  + " events "
                  + STALL_TIMEOUT.toSeconds()
                  + " s after the index store acknowledged all; the server's index metrics: "
                  + metrics.describeIndexing()
                  + "\nrequest: AggregateEventRecords "
                  + ApiCalls.json(countAll));
        }
      } else if (writesDone >= 0 && t - lastChange > STALL_TIMEOUT.toNanos()) {
        throw new IllegalStateException(
            "the index store acknowledged "
                + indexedSoFar
                + " of "
                + events
                + " events, and none for "
                + STALL_TIMEOUT.toSeconds()
                + " s; the server's index metrics: "
                + metrics.describeIndexing());
      }
      if (searchable < 0) {
        Thread.sleep(200);
      }
    }
    return new Timeline(writesDone, acked, searchable, maxQueue);
  }
}
