package io.varve.perf.lifecycle;

import com.google.protobuf.util.Durations;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.client.CallSettings;
import io.varve.client.TimeSeriesClient;
import io.varve.client.VarveClient;
import io.varve.perf.dataplane.CassandraSettle;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.Testbed;
import io.varve.perf.environment.VarveServer;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.ts.EventGenerator;
import io.varve.perf.ts.TimeSeriesBenchmark;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.HdrHistogram.Histogram;

/**
 * {@code varve perf lifecycle}: what the data lifecycle buys a reader, in one run. {@code
 * closed_slice.read.p99.ratio}: see {@link ClosedSlicePhase} (local Cassandra only: it flushes and
 * compacts over JMX). {@code cache.read.p99.ratio}: a read of an immutable range (an hour three
 * hours old, {@code --events} events in one partition, the namespace's accept limit lowered to one
 * hour once they are written) through a server with the cache of immutable ranges, divided by the
 * same read through a second server on the same Cassandra with the cache off. The two servers'
 * reads are interleaved, so both see the same machine. Prints {@code key=value} lines and the
 * goal's verdict.
 */
public final class LifecycleBenchmark {

  static final String NAMESPACE = "perf_lifecycle";
  static final String METADATA_KEYSPACE = "varve_perf_lifecycle";
  static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(10);

  static final Goals GOALS =
      new Goals(
          List.of(
              new Goals.Goal("cache.read.p99.ratio", false, 0.3),
              new Goals.Goal("closed_slice.read.p99.ratio", false, 0.7),
              new Goals.Goal("repartition.ratio", true, 0.8),
              new Goals.Goal("hot_series.read.p99.ratio", false, 0.7)));

  private final Environment environment;
  private final int reads;
  private final int events;
  private final int warmupSeconds;
  private final int denseEvents;

  LifecycleBenchmark(
      Environment environment, int reads, int events, int warmupSeconds, int denseEvents) {
    this.denseEvents = denseEvents;
    this.environment = environment;
    this.reads = reads;
    this.events = events;
    this.warmupSeconds = warmupSeconds;
  }

  void run(String cassandra, Figures out) throws Exception {
    out.put("machine.cores", Runtime.getRuntime().availableProcessors());
    out.put("machine.java", System.getProperty("java.version"));
    Testbed testbed =
        Testbed.open(
            environment,
            cassandra,
            METADATA_KEYSPACE,
            List.of(NAMESPACE, ClosedSlicePhase.NAMESPACE, RepartitionPhase.NAMESPACE),
            "perf-lifecycle-cached",
            c -> c.serverConfiguration());
    VarveServer cached = testbed.server();
    VarveServer uncached =
        VarveServer.start(
            environment,
            "perf-lifecycle-uncached",
            testbed.serverConfiguration()
                + "timeseries:\n  sliceMaintenanceInterval: 2s\n  compaction:\n"
                + "    switchInterval: 1s\n  readCache:\n    maxBytes: 0\n"
                + "  histogram:\n    interval: 1s\n    targetPartitionRows: "
                + HOT_TARGET_ROWS
                + "\n");
    VarveClient withCache = cached.client(environment, RESPONSE_TIMEOUT);
    VarveClient withoutCache = uncached.client(environment, RESPONSE_TIMEOUT);
    CallSettings control = CallSettings.defaults().withDeadline(Duration.ofMinutes(2));
    CreateNamespaceRequest create = TimeSeriesBenchmark.namespace(NAMESPACE, 1);
    VarveClient.join(withCache.controlPlane().createNamespace(create, control));

    environment.progress("writing " + events + " events three hours back");
    long bucket = TimeSeriesBenchmark.BUCKET_MILLIS;
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(3));
    long from = hour.toEpochMilli();
    long to = from + bucket;
    EventGenerator generator = new EventGenerator(1, bucket, hour);
    List<Event> range = new ArrayList<>();
    for (int i = 0; i < events; i++) {
      range.add(generator.event("reader", from + i * (bucket / events), "read-" + i));
    }
    VarveClient.join(
        withCache
            .timeSeries()
            .writeEventRecordsSync(
                WriteEventRecordsRequest.newBuilder()
                    .setNamespace(NAMESPACE)
                    .addAllEvents(range)
                    .build()));
    // the hour written is immutable once writes are accepted one hour back only
    VarveClient.join(
        withCache
            .controlPlane()
            .updateNamespace(
                UpdateNamespaceRequest.newBuilder()
                    .setNamespace(NAMESPACE)
                    .addPersistenceConfiguration(
                        create.getPersistenceConfiguration(0).toBuilder()
                            .setConfig(
                                create.getPersistenceConfiguration(0).getConfig().toBuilder()
                                    .setAcceptLimit(Durations.fromHours(1))))
                    .build(),
                control));

    ReadEventRecordsRequest read =
        ReadEventRecordsRequest.newBuilder()
            .setNamespace(NAMESPACE)
            .setTimeSeriesId("reader")
            .setTimeInterval(
                io.varve.api.timeseries.v1.TimeInterval.newBuilder()
                    .setStart(com.google.protobuf.util.Timestamps.fromMillis(from))
                    .setEnd(com.google.protobuf.util.Timestamps.fromMillis(to)))
            .setPageSize(Math.max(events, 1))
            .build();
    environment.progress(
        reads + " reads per side, interleaved, after " + warmupSeconds + " s of warm-up");
    Histogram withHistogram = new Histogram(60_000_000L, 3);
    Histogram withoutHistogram = new Histogram(60_000_000L, 3);
    long warmupEnd = System.nanoTime() + warmupSeconds * 1_000_000_000L;
    while (System.nanoTime() < warmupEnd) {
      readOnce(withCache.timeSeries(), read);
      readOnce(withoutCache.timeSeries(), read);
    }
    for (int i = 0; i < reads; i++) {
      long t0 = System.nanoTime();
      readOnce(withCache.timeSeries(), read);
      long t1 = System.nanoTime();
      readOnce(withoutCache.timeSeries(), read);
      long t2 = System.nanoTime();
      withHistogram.recordValue((t1 - t0) / 1000);
      withoutHistogram.recordValue((t2 - t1) / 1000);
    }
    Map<String, Double> goals = new LinkedHashMap<>();
    Figures figures = out.keeping(GOALS.figures(), goals);
    figures.put("cache.read.events", events);
    figures.put("cache.read.iterations", reads);
    figures.latency("cache.read.cached", withHistogram);
    figures.latency("cache.read.uncached", withoutHistogram);
    figures.put(
        "cache.read.p50.ratio",
        Goals.ratio(
            withHistogram.getValueAtPercentile(50), withoutHistogram.getValueAtPercentile(50)));
    figures.put(
        "cache.read.p99.ratio",
        Goals.ratio(
            withHistogram.getValueAtPercentile(99), withoutHistogram.getValueAtPercentile(99)));
    if (testbed.cassandra().local().isPresent()) {
      environment.progress("a closed slice's reads before and after its compaction switch");
      CassandraSettle settle = new CassandraSettle(testbed.session());
      Runnable settled =
          () -> {
            try {
              settle.await(Duration.ofMinutes(5));
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              throw new IllegalStateException(e);
            }
          };
      new ClosedSlicePhase(environment, reads, events)
          .run(figures, withoutCache, new InetSocketAddress("127.0.0.1", LOCAL_JMX_PORT), settled);
      environment.progress("a slice re-partitioned by the reshaper, and a dense series' reads");
      new RepartitionPhase(environment, Math.max(10, reads / 10), denseEvents)
          .run(
              figures,
              withoutCache,
              testbed.session(),
              testbed.cassandra().address(),
              new InetSocketAddress("127.0.0.1", LOCAL_JMX_PORT),
              settled);
    } else {
      environment.progress(
          "closed_slice.*, repartition.* and hot_series.* not measured: they flush and compact"
              + " over the local node's JMX");
    }
    GOALS.print(goals, out);
  }

  /**
   * The partition target of the server without the cache, whose histograms recommend the dense
   * series' buckets: below their partitions, above the sparse ones'.
   */
  static final int HOT_TARGET_ROWS = 1000;

  /** The JMX port of the local Cassandra of {@code ./varve}. */
  static final int LOCAL_JMX_PORT = 7199;

  private void readOnce(TimeSeriesClient client, ReadEventRecordsRequest read) {
    int found = VarveClient.join(client.readEventRecords(read)).getEventsCount();
    if (found != events) {
      throw new IllegalStateException("a read returned " + found + " events, not " + events);
    }
  }
}
