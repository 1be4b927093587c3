package io.varve.cli.perf;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.google.protobuf.ByteString;
import com.google.protobuf.MessageOrBuilder;
import com.google.protobuf.util.JsonFormat;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.grpc.StatusRuntimeException;
import io.varve.api.timeseries.v1.AggregateEventRecordsRequest;
import io.varve.api.timeseries.v1.AggregateEventRecordsResponse;
import io.varve.api.timeseries.v1.AggregationQuery;
import io.varve.api.timeseries.v1.BooleanQuery;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CountAggregation;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.DistinctAggregation;
import io.varve.api.timeseries.v1.DistinctValue;
import io.varve.api.timeseries.v1.EqualsQuery;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.GetNamespaceRequest;
import io.varve.api.timeseries.v1.IndexConfig;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.RangeBound;
import io.varve.api.timeseries.v1.RangeQuery;
import io.varve.api.timeseries.v1.SearchEventRecordsRequest;
import io.varve.api.timeseries.v1.SearchEventRecordsResponse;
import io.varve.api.timeseries.v1.SearchQuery;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.TimeSlice;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.api.timeseries.v1.WriteEventRecordsResponse;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.cassandra.session.Sessions;
import io.varve.cli.ServerProcess;
import io.varve.local.LocalCassandra;
import io.varve.local.LocalCassandraSettings;
import io.varve.local.LocalOpenSearch;
import io.varve.local.LocalOpenSearchSettings;
import io.varve.local.VarveHome;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code varve perf search}: the search and aggregate APIs, in one run, against the server run as
 * its own process (as {@code varve up} runs it) with the local Cassandra as primary store and the
 * local OpenSearch as index store:
 * <ol>
 *   <li>N events written over the last 24 h by K writers ({@code WriteEventRecordsSync}): the
 *       primary write rate and, side by side, the indexing throughput (first write until
 *       {@code AggregateEventRecords} counts all N);</li>
 *   <li>SearchEventRecords latency of an equals query and of equals AND range, over 1 h and 24 h,
 *       from concurrent clients, each answer checked against the data written;</li>
 *   <li>AggregateEventRecords latency of a distinct over 24 h, checked likewise;</li>
 *   <li>index lag, under a light background write load: single events with a unique
 *       {@code probe} value, searched for every 20 ms from their acknowledgement until found.</li>
 * </ol>
 * Prints {@code key=value} lines and writes them to a file under {@code bench-results/}. Starts
 * what is not running (the local OpenSearch and Cassandra, through the launcher) and a server on a
 * free port, and stops exactly those at the end, also on failure or Ctrl-C.
 */
@Command(name = "search", mixinStandardHelpOptions = true,
    description = "Benchmark indexing, SearchEventRecords and AggregateEventRecords on the local Cassandra and"
        + " OpenSearch.")
public final class SearchPerf implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--events", defaultValue = "200000", description = "Events written over the last 24 h (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(names = "--writers", defaultValue = "8", description = "Concurrent writers, one request in flight each (default: ${DEFAULT-VALUE}).")
  int writers;

  @Option(names = "--batch", defaultValue = "100", description = "Events per write request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--requests", defaultValue = "500", description = "Measured requests per search and aggregate query (default: ${DEFAULT-VALUE}).")
  int requests;

  @Option(names = "--warmup", defaultValue = "50", description = "Warm-up requests per query, not measured; their answers are checked in full (default: ${DEFAULT-VALUE}).")
  int warmup;

  @Option(names = "--clients", defaultValue = "4", description = "Concurrent search clients (default: ${DEFAULT-VALUE}).")
  int clients;

  @Option(names = "--probes", defaultValue = "200", description = "Index-lag probes (default: ${DEFAULT-VALUE}).")
  int probes;

  @Option(names = "--probe-interval-ms", defaultValue = "100", description = "Time between two probe writes (default: ${DEFAULT-VALUE}).")
  int probeIntervalMs;

  @Option(names = "--background-events-per-s", defaultValue = "100", description = "Background write load of the index-lag phase, events/s; 0 for none (default: ${DEFAULT-VALUE}).")
  int backgroundRate;

  @Option(names = "--document-mode", defaultValue = "REVERSE_INDEX", description = "REVERSE_INDEX or FULL_EVENT (default: ${DEFAULT-VALUE}).")
  String documentMode;

  @Option(names = "--queue-capacity", description = "The server's opensearch.queueCapacity (default: the larger of 100000 and --events, so that no event is dropped).")
  Integer queueCapacity;

  @Option(names = "--cassandra", description = "Use this Cassandra (host:port) instead of starting the local one.")
  String cassandra;

  @Option(names = "--opensearch", description = "Use this OpenSearch (http://host:port) instead of starting the local one.")
  String opensearch;

  @Option(names = "--out", description = "File the figures are also written to (default: bench-results/search-<UTC time>.txt).")
  Path out;

  static final String NAMESPACE = "perf_search";
  static final String METADATA_KEYSPACE = "varve_perf_search";
  static final String INDEX_DATASET = "perf";
  static final int SERIES = 1000;
  static final int PAGE_SIZE = 100;
  static final int POLL_MILLIS = 20;
  static final int MAX_OUTSTANDING_PROBES = 100;
  static final long HOUR = 3_600_000L;
  static final long DAY = 24 * HOUR;
  static final Duration START_TIMEOUT = Duration.ofMinutes(3);
  static final Duration STALL_TIMEOUT = Duration.ofSeconds(90);
  static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

  private final HttpClient http = HttpClient.newHttpClient();

  @Override
  public Integer call() throws Exception {
    check("--batch", batch, 1, 1000);
    check("--events", events, batch, 100_000_000);
    check("--writers", writers, 1, 1024);
    check("--requests", requests, 1, 10_000_000);
    check("--warmup", warmup, 0, 10_000_000);
    check("--clients", clients, 1, 256);
    check("--probes", probes, 1, 1_000_000);
    check("--probe-interval-ms", probeIntervalMs, 1, 60_000);
    check("--background-events-per-s", backgroundRate, 0, 1_000_000);
    documentMode = documentMode.toUpperCase(Locale.ROOT);
    if (!documentMode.equals("REVERSE_INDEX") && !documentMode.equals("FULL_EVENT")) {
      throw new ParameterException(spec.commandLine(), "--document-mode: " + documentMode
          + " (expected: REVERSE_INDEX or FULL_EVENT)");
    }
    int capacity = queueCapacity != null ? queueCapacity : Math.max(100_000, events);
    check("--queue-capacity", capacity, 1, 10_000_000);

    Path home = VarveHome.locate();
    Path file = out != null ? out : home.resolve("bench-results").resolve("search-"
        + DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss").withZone(ZoneOffset.UTC).format(java.time.Instant.now()) + ".txt");
    if (file.toAbsolutePath().getParent() != null) {
      Files.createDirectories(file.toAbsolutePath().getParent());
    }
    Cleanup cleanup = new Cleanup();
    Thread hook = new Thread(() -> {
      if (cleanup.pending()) {
        progress("interrupted: stopping what the benchmark started");
      }
      cleanup.run();
    }, "perf-search-cleanup");
    Runtime.getRuntime().addShutdownHook(hook);
    try (OutputStream fileOut = Files.newOutputStream(file)) {
      Figures figures = new Figures(new PrintStream(new Tee(System.out, fileOut), true, StandardCharsets.UTF_8));
      try {
        run(figures, cleanup, home, capacity);
      } finally {
        cleanup.run();
        progress("figures written to " + file);
      }
    } finally {
      try {
        Runtime.getRuntime().removeShutdownHook(hook);
      } catch (IllegalStateException e) {
        // the JVM is shutting down: the hook runs (and finds nothing left to do)
      }
    }
    return 0;
  }

  private void run(Figures out, Cleanup cleanup, Path home, int capacity) throws Exception {
    out.put("machine.cores", Runtime.getRuntime().availableProcessors());
    out.put("machine.os", System.getProperty("os.name") + " " + System.getProperty("os.version") + " "
        + System.getProperty("os.arch"));
    out.put("machine.java", System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
    out.put("params.events", events);
    out.put("params.writers", writers);
    out.put("params.batch", batch);
    out.put("params.series", SERIES);
    out.put("params.device_types", SearchEvents.DEVICE_TYPES.size());
    out.put("params.countries", SearchEvents.COUNTRIES.size());
    out.put("params.event_time_window", "24h");
    out.put("params.document_mode", documentMode);
    out.put("params.refresh_interval", "1s");
    out.put("params.queue_capacity", capacity);
    out.put("params.requests", requests);
    out.put("params.warmup", warmup);
    out.put("params.clients", clients);
    out.put("params.page_size", PAGE_SIZE);
    out.put("params.probes", probes);
    out.put("params.probe_interval_ms", probeIntervalMs);
    out.put("params.probe_poll_ms", POLL_MILLIS);
    out.put("params.background_events_per_s", backgroundRate);

    // OpenSearch first: it fails at once when no JDK 21+ is found, before Cassandra is launched.
    LocalOpenSearch localOpenSearch = null;
    URI openSearchUrl;
    if (opensearch != null) {
      openSearchUrl = URI.create(opensearch.endsWith("/") ? opensearch.substring(0, opensearch.length() - 1) : opensearch);
    } else {
      localOpenSearch = new LocalOpenSearch(LocalOpenSearchSettings.forDevelopment(home));
      openSearchUrl = localOpenSearch.settings().endpoint();
      if (!localOpenSearch.status().isRunning()) {
        LocalOpenSearch node = localOpenSearch;
        progress("starting the local OpenSearch (" + openSearchUrl + ")");
        cleanup.add("stop the local OpenSearch", () -> node.stop(Duration.ofMinutes(1)));
      }
      localOpenSearch.start();
    }
    LocalCassandra localCassandra = null;
    InetSocketAddress cql;
    if (cassandra != null) {
      cql = io.varve.server.config.ServerSettings.contactPoint("--cassandra", cassandra);
    } else {
      localCassandra = new LocalCassandra(LocalCassandraSettings.forDevelopment(home));
      cql = localCassandra.settings().cqlAddress();
      if (!localCassandra.status().isRunning()) {
        LocalCassandra node = localCassandra;
        progress("starting the local Cassandra (" + cql.getHostString() + ":" + cql.getPort() + ")");
        cleanup.add("stop the local Cassandra", () -> node.stop(Duration.ofMinutes(1)));
      }
      localCassandra.start();
    }
    if (localOpenSearch != null) {
      localOpenSearch.awaitReady(START_TIMEOUT);
    }
    if (localCassandra != null) {
      localCassandra.awaitReady(START_TIMEOUT);
    }

    CassandraSettings cassandraSettings = CassandraSettings.local(cql.getPort())
        .withContactPoints(List.of(cql)).withMetadataKeyspace(METADATA_KEYSPACE);
    CqlSession session = Sessions.open(cassandraSettings).toCompletableFuture().join();
    cleanup.add("close the CQL session", session::close);
    dropData(session, openSearchUrl);
    cleanup.add("drop the benchmark's keyspaces and indices", () -> dropData(session, openSearchUrl));

    int port = freePort();
    ServerProcess server = new ServerProcess(home, "perf-search-server", port);
    cleanup.add("stop the benchmark's server", () -> server.stop(Duration.ofSeconds(30)));
    progress("starting the server (" + server.apiAddress() + ", log " + server.log() + ")");
    startServer(server, port, cql, openSearchUrl, capacity);
    String base = server.apiAddress();

    ControlPlaneGrpc.ControlPlaneBlockingStub control = GrpcClients.builder(base)
        .responseTimeout(Duration.ofMinutes(2)).build(ControlPlaneGrpc.ControlPlaneBlockingStub.class);
    TimeSeriesGrpc.TimeSeriesBlockingStub api = GrpcClients.builder(base).maxResponseLength(0)
        .responseTimeout(Duration.ofSeconds(60)).build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);

    long now = System.currentTimeMillis();
    long dataEnd = now - now % 1000;
    long dataFrom = dataEnd - DAY;
    createNamespace(control, dataFrom);

    CpuMeter cpu = new CpuMeter().add("client", ProcessHandle.current().pid())
        .add("server", server.running().map(ProcessHandle::pid).orElse(-1L));
    if (localCassandra != null) {
      cpu.add("cassandra", localCassandra.status().pid());
    }
    if (localOpenSearch != null) {
      cpu.add("opensearch", localOpenSearch.status().pid());
    }

    progress("generating " + events + " events");
    SearchEvents data = new SearchEvents(events, SERIES, dataFrom, dataEnd - 60_000, 42);
    writeAndIndex(out, api, base, data, dataFrom, dataEnd, cpu);
    searches(out, api, data, dataFrom, dataEnd);
    aggregates(out, api, data, dataFrom, dataEnd);
    indexLag(out, api, data);
    Map<String, Double> metrics = metrics(base);
    out.put("index_dropped_events_total", (long) sum(metrics, "varve_index_dropped_events_total"));
    out.put("index_failed_events_total", (long) sum(metrics, "varve_index_failed_events_total"));
    out.put("index_skipped_events_total", (long) sum(metrics, "varve_index_skipped_events_total"));
  }

  // ---------------------------------------------------------------- phase 1: writes and indexing

  private void writeAndIndex(Figures out, TimeSeriesGrpc.TimeSeriesBlockingStub api, String base, SearchEvents data,
      long dataFrom, long dataEnd, CpuMeter cpu) throws Exception {
    List<List<Event>> batches = data.batches(batch);
    AggregateEventRecordsRequest countAll = AggregateEventRecordsRequest.newBuilder().setNamespace(NAMESPACE)
        .setTimeInterval(interval(dataFrom - HOUR, dataEnd + HOUR))
        .setAggregationQuery(AggregationQuery.newBuilder().setCount(CountAggregation.getDefaultInstance())).build();
    progress("writing " + events + " events with " + writers + " writers, and waiting until all are indexed");
    AtomicInteger next = new AtomicInteger();
    AtomicLong acknowledged = new AtomicLong();
    AtomicLong lastAck = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(writers, daemon("perf-search-writer"));
    Map<String, Duration> cpuBefore = cpu.sample();
    long start = System.nanoTime();
    List<Future<?>> running = new ArrayList<>();
    try {
      for (int w = 0; w < writers; w++) {
        running.add(pool.submit(() -> {
          for (int i = next.getAndIncrement(); i < batches.size(); i = next.getAndIncrement()) {
            WriteEventRecordsRequest request = WriteEventRecordsRequest.newBuilder().setNamespace(NAMESPACE)
                .addAllEvents(batches.get(i)).build();
            write(api, request);
            acknowledged.addAndGet(request.getEventsCount());
            lastAck.accumulateAndGet(System.nanoTime(), Math::max);
          }
          return null;
        }));
      }
      // The server's counter of events the index store acknowledged is read until it reaches N; only then
      // is the index searched (a count of every event) until it holds all N: the indices exist by then.
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
          progress(String.format(Locale.ROOT, "writes done in %.1f s", (writesDone - start) / 1e9));
        }
        long t = System.nanoTime();
        if (acked < 0) {
          Map<String, Double> metrics = metrics(base);
          maxQueue = Math.max(maxQueue, (long) sum(metrics, "varve_index_queue_events"));
          long indexed = (long) sum(metrics, "varve_index_indexed_events_total");
          long lost = (long) (sum(metrics, "varve_index_dropped_events_total")
              + sum(metrics, "varve_index_failed_events_total") + sum(metrics, "varve_index_skipped_events_total"));
          if (lost > 0) {
            throw new IllegalStateException("the server did not index " + lost + " events (its index metrics: "
                + indexMetrics(base) + "); with dropped events, raise --queue-capacity");
          }
          if (indexed != indexedSoFar) {
            indexedSoFar = indexed;
            lastChange = t;
          }
          if (indexed >= events) {
            acked = t;
            progress(String.format(Locale.ROOT, "all events acknowledged by the index store after %.1f s",
                (acked - start) / 1e9));
          }
        }
        if (acked >= 0) {
          long c = count(api, countAll);
          if (c > events) {
            throw new IllegalStateException("wrong result: the index counts " + c + " events, more than the " + events
                + " written\nrequest: AggregateEventRecords " + json(countAll));
          }
          if (c == events) {
            searchable = System.nanoTime();
            progress(String.format(Locale.ROOT, "all events searchable after %.1f s", (searchable - start) / 1e9));
          } else if (t - acked > STALL_TIMEOUT.toNanos()) {
            throw new IllegalStateException("the index counts " + c + " of " + events + " events "
                + STALL_TIMEOUT.toSeconds() + " s after the index store acknowledged all; the server's index metrics: "
                + indexMetrics(base) + "\nrequest: AggregateEventRecords " + json(countAll));
          }
        } else if (writesDone >= 0 && t - lastChange > STALL_TIMEOUT.toNanos()) {
          throw new IllegalStateException("the index store acknowledged " + indexedSoFar + " of " + events
              + " events, and none for " + STALL_TIMEOUT.toSeconds() + " s; the server's index metrics: "
              + indexMetrics(base));
        }
        if (searchable < 0) {
          Thread.sleep(200);
        }
      }
      Map<String, Duration> cpuUsed = new java.util.LinkedHashMap<>();
      cpu.accumulate(cpuBefore, cpuUsed);
      double writeSeconds = (writesDone - start) / 1e9;
      double indexSeconds = (searchable - start) / 1e9;
      out.put("write_events", acknowledged.get());
      out.put("write_seconds", writeSeconds);
      out.put("write_events_per_s", acknowledged.get() / writeSeconds);
      out.put("index_seconds", indexSeconds);
      out.put("index_events_per_s", events / indexSeconds);
      out.put("index_store_acknowledged_events_per_s", events / ((acked - start) / 1e9));
      out.put("index_searchable_after_writes_ms", Math.max(0, searchable - writesDone) / 1e6);
      out.put("index_queue_max_events", maxQueue);
      cpuUsed.forEach((name, d) -> out.put("write_index_cpu_ms_per_1k_events." + name, d.toMillis() * 1000.0 / events));
    } finally {
      pool.shutdownNow();
    }
  }

  private static void write(TimeSeriesGrpc.TimeSeriesBlockingStub api, WriteEventRecordsRequest request) {
    WriteEventRecordsResponse response;
    try {
      response = api.writeEventRecordsSync(request);
    } catch (StatusRuntimeException e) {
      throw failed("WriteEventRecordsSync of " + request.getEventsCount() + " events, the first "
          + json(request.getEvents(0)), e);
    }
    if (response.getWrittenCount() != request.getEventsCount()) {
      throw new IllegalStateException("WriteEventRecordsSync wrote " + response.getWrittenCount() + " of "
          + request.getEventsCount() + " events: " + json(response));
    }
  }

  private static long count(TimeSeriesGrpc.TimeSeriesBlockingStub api, AggregateEventRecordsRequest request) {
    AggregateEventRecordsResponse response;
    try {
      response = api.aggregateEventRecords(request);
    } catch (StatusRuntimeException e) {
      throw failed("AggregateEventRecords " + json(request), e);
    }
    if (!response.hasCount()) {
      throw new IllegalStateException("wrong result: no count in the answer\nrequest: AggregateEventRecords "
          + json(request) + "\nresponse: " + json(response));
    }
    return response.getCount();
  }

  // ---------------------------------------------------------------- phase 2: search latency

  private void searches(Figures out, TimeSeriesGrpc.TimeSeriesBlockingStub api, SearchEvents data, long dataFrom,
      long dataEnd) throws Exception {
    for (boolean wholeDay : new boolean[] {false, true}) {
      for (boolean withRange : new boolean[] {false, true}) {
        String name = "search_" + (withRange ? "equals_range_" : "equals_") + (wholeDay ? "24h" : "1h");
        progress(name + ": " + warmup + " warm-up and " + requests + " measured requests from " + clients + " clients");
        AtomicLong returned = new AtomicLong();
        LatencyRun.Result result = LatencyRun.run(clients, warmup, requests, i -> {
          SplittableRandom random = new SplittableRandom((withRange ? 7_000_000_000L : 0) + (wholeDay ? 3_000_000_000L : 0) + i);
          int device = random.nextInt(SearchEvents.DEVICE_TYPES.size());
          long from;
          long to;
          if (wholeDay) {
            from = dataFrom;
            to = dataEnd + random.nextInt(60) * 1000L;
          } else {
            int hour = 1 + random.nextInt(24);
            from = dataEnd - hour * HOUR;
            to = from + HOUR;
          }
          int lo = withRange ? random.nextInt(SearchEvents.MAX_DURATION - 900) : -1;
          int hi = withRange ? lo + 900 : -1;
          SearchQuery query = equals(SearchEvents.DEVICE_TYPE, SearchEvents.DEVICE_TYPES.get(device));
          if (withRange) {
            query = SearchQuery.newBuilder().setBooleanQuery(BooleanQuery.newBuilder().setOperator("AND")
                .addSearchQuery(query)
                .addSearchQuery(SearchQuery.newBuilder().setRange(RangeQuery.newBuilder()
                    .setEventItemKey(bytes(SearchEvents.DURATION))
                    .setLowerBound(RangeBound.newBuilder().setEventItemValue(bytes(Integer.toString(lo))).setInclusive(true))
                    .setUpperBound(RangeBound.newBuilder().setEventItemValue(bytes(Integer.toString(hi))))))).build();
          }
          SearchEventRecordsRequest request = SearchEventRecordsRequest.newBuilder().setNamespace(NAMESPACE)
              .setTimeInterval(interval(from, to)).setSearchQuery(query).setPageSize(PAGE_SIZE).build();
          SearchEventRecordsResponse response;
          try {
            response = api.searchEventRecords(request);
          } catch (StatusRuntimeException e) {
            throw failed("SearchEventRecords " + json(request), e);
          }
          long expected = i < 0 ? data.count(device, lo, hi, from, to) : -1;
          checkSearch(request, response, SearchEvents.DEVICE_TYPES.get(device), lo, hi, from, to, expected);
          if (i >= 0) {
            returned.addAndGet(response.getEventsCount());
          }
        });
        out.put(name + "_p50_ms", result.micros().getValueAtPercentile(50) / 1000.0);
        out.put(name + "_p99_ms", result.micros().getValueAtPercentile(99) / 1000.0);
        out.put(name + "_max_ms", result.micros().getMaxValue() / 1000.0);
        out.put(name + "_requests_per_s", result.requestsPerSecond());
        out.put(name + "_events_per_response", (double) returned.get() / requests);
      }
    }
  }

  /**
   * Checks an answer: at most a page, events newest first, each in the interval and matching the
   * query; with {@code expected} not negative, exactly min(page, expected) events.
   */
  private static void checkSearch(SearchEventRecordsRequest request, SearchEventRecordsResponse response,
      String device, int lo, int hi, long from, long to, long expected) {
    String problem = null;
    if (response.getEventsCount() > PAGE_SIZE) {
      problem = response.getEventsCount() + " events in a page of " + PAGE_SIZE;
    } else if (expected >= 0 && response.getEventsCount() != Math.min(PAGE_SIZE, expected)) {
      problem = response.getEventsCount() + " events, expected " + Math.min(PAGE_SIZE, expected) + " (" + expected
          + " events of the data written match)";
    }
    long previous = Long.MAX_VALUE;
    for (int i = 0; problem == null && i < response.getEventsCount(); i++) {
      Event event = response.getEvents(i);
      long time = SearchEvents.millis(event.getEventTime());
      String d = SearchEvents.item(event, SearchEvents.DEVICE_TYPE);
      String duration = SearchEvents.item(event, SearchEvents.DURATION);
      if (time < from || time >= to) {
        problem = "event " + i + " is outside the interval";
      } else if (time > previous) {
        problem = "event " + i + " is newer than event " + (i - 1) + " (expected: newest first)";
      } else if (!device.equals(d)) {
        problem = "event " + i + " has deviceType " + d;
      } else if (lo >= 0 && (duration == null || Integer.parseInt(duration) < lo || Integer.parseInt(duration) >= hi)) {
        problem = "event " + i + " has duration " + duration;
      }
      previous = time;
    }
    if (problem != null) {
      throw new IllegalStateException("wrong result: " + problem + "\nrequest: SearchEventRecords " + json(request)
          + "\nresponse: " + abbreviate(json(response)));
    }
  }

  // ---------------------------------------------------------------- phase 3: aggregate latency

  private void aggregates(Figures out, TimeSeriesGrpc.TimeSeriesBlockingStub api, SearchEvents data, long dataFrom,
      long dataEnd) throws Exception {
    Map<String, Long> expected = data.countsByCountry();
    String name = "aggregate_distinct_24h";
    progress(name + ": " + warmup + " warm-up and " + requests + " measured requests from " + clients + " clients");
    LatencyRun.Result result = LatencyRun.run(clients, warmup, requests, i -> {
      SplittableRandom random = new SplittableRandom(11_000_000_000L + i);
      AggregateEventRecordsRequest request = AggregateEventRecordsRequest.newBuilder().setNamespace(NAMESPACE)
          .setTimeInterval(interval(dataFrom, dataEnd + random.nextInt(60) * 1000L))
          .setAggregationQuery(AggregationQuery.newBuilder().setDistinct(DistinctAggregation.newBuilder()
              .setEventItemKey(SearchEvents.COUNTRY).setPageSize(PAGE_SIZE)))
          .build();
      AggregateEventRecordsResponse response;
      try {
        response = api.aggregateEventRecords(request);
      } catch (StatusRuntimeException e) {
        throw failed("AggregateEventRecords " + json(request), e);
      }
      Map<String, Long> got = new HashMap<>();
      long total = 0;
      for (DistinctValue value : response.getDistinct().getValuesList()) {
        got.put(value.getEventItemValue().toString(StandardCharsets.UTF_8), value.getCount());
        total += value.getCount();
      }
      String problem = null;
      if (!response.hasDistinct()) {
        problem = "no distinct values in the answer";
      } else if (i < 0 && !got.equals(expected)) {
        problem = "the counts per country differ from the data written, expected " + expected;
      } else if (got.size() != expected.size() || total != events) {
        problem = got.size() + " countries, " + total + " events; expected " + expected.size() + " countries, " + events
            + " events";
      } else if (!response.getDistinct().getNextPageToken().isEmpty()) {
        problem = "a next page, though every value fits in one";
      }
      if (problem != null) {
        throw new IllegalStateException("wrong result: " + problem + "\nrequest: AggregateEventRecords "
            + json(request) + "\nresponse: " + abbreviate(json(response)));
      }
    });
    out.put(name + "_p50_ms", result.micros().getValueAtPercentile(50) / 1000.0);
    out.put(name + "_p99_ms", result.micros().getValueAtPercentile(99) / 1000.0);
    out.put(name + "_max_ms", result.micros().getMaxValue() / 1000.0);
    out.put(name + "_requests_per_s", result.requestsPerSecond());
  }

  // ---------------------------------------------------------------- phase 4: index lag

  /**
   * Writes {@code probes} single events, one every {@code probeIntervalMs}, each with a unique
   * {@code probe} value, beside a background load of {@code backgroundRate} events/s. One poller
   * searches every {@value #POLL_MILLIS} ms for all probes not found yet (an OR of their values);
   * a probe's lag is from its write's acknowledgement to the answer that first holds it.
   */
  private void indexLag(Figures out, TimeSeriesGrpc.TimeSeriesBlockingStub api, SearchEvents data) throws Exception {
    progress("index lag: " + probes + " probes, one every " + probeIntervalMs + " ms, beside " + backgroundRate
        + " background events/s");
    long phaseStart = System.currentTimeMillis();
    String run = Long.toString(phaseStart, 36);
    TimeInterval window = interval(phaseStart - 60_000, phaseStart + HOUR);
    Map<String, Long> outstanding = new ConcurrentHashMap<>();
    Histogram lag = new Histogram(600_000_000L, 3);
    AtomicLong lost = new AtomicLong();
    AtomicReference<Exception> failure = new AtomicReference<>();
    java.util.concurrent.ScheduledExecutorService background = Executors.newSingleThreadScheduledExecutor(
        daemon("perf-search-background"));
    AtomicLong backgroundEvents = new AtomicLong();
    if (backgroundRate > 0) {
      int perTick = Math.max(1, backgroundRate / 10);
      long tickMicros = 1_000_000L * perTick / backgroundRate;
      background.scheduleAtFixedRate(() -> {
        try {
          long now = System.currentTimeMillis();
          WriteEventRecordsRequest.Builder request = WriteEventRecordsRequest.newBuilder().setNamespace(NAMESPACE);
          for (int k = 0; k < perTick; k++) {
            request.addEvents(data.extra("bg-" + run + "-" + backgroundEvents.getAndIncrement(), now, null));
          }
          write(api, request.build());
        } catch (Exception e) {
          failure.compareAndSet(null, e);
        }
      }, 0, tickMicros, TimeUnit.MICROSECONDS);
    }
    AtomicInteger written = new AtomicInteger();
    Thread poller = new Thread(() -> {
      try {
        while (written.get() < probes || !outstanding.isEmpty()) {
          long tick = System.nanoTime();
          if (!outstanding.isEmpty()) {
            List<String> values = new ArrayList<>(outstanding.keySet());
            BooleanQuery.Builder or = BooleanQuery.newBuilder().setOperator("OR");
            values.forEach(v -> or.addSearchQuery(equals(SearchEvents.PROBE, v)));
            SearchEventRecordsRequest request = SearchEventRecordsRequest.newBuilder().setNamespace(NAMESPACE)
                .setTimeInterval(window).setSearchQuery(SearchQuery.newBuilder().setBooleanQuery(or))
                .setPageSize(MAX_OUTSTANDING_PROBES).build();
            SearchEventRecordsResponse response;
            try {
              response = api.searchEventRecords(request);
            } catch (StatusRuntimeException e) {
              throw failed("SearchEventRecords " + json(request), e);
            }
            long found = System.nanoTime();
            for (Event event : response.getEventsList()) {
              String probe = SearchEvents.item(event, SearchEvents.PROBE);
              Long ack = probe == null ? null : outstanding.remove(probe);
              if (ack != null) {
                lag.recordValue(Math.max(1, (found - ack) / 1000));
              } else if (probe == null || !probe.startsWith("p-" + run + "-")) {
                throw new IllegalStateException("wrong result: an event that is not a probe of this run"
                    + "\nrequest: SearchEventRecords " + json(request) + "\nresponse: " + abbreviate(json(response)));
              }
            }
            outstanding.entrySet().removeIf(e -> {
              if (found - e.getValue() > PROBE_TIMEOUT.toNanos()) {
                lost.incrementAndGet();
                return true;
              }
              return false;
            });
          }
          long sleep = POLL_MILLIS * 1_000_000L - (System.nanoTime() - tick);
          if (sleep > 0) {
            TimeUnit.NANOSECONDS.sleep(sleep);
          }
        }
      } catch (Exception e) {
        failure.compareAndSet(null, e);
      }
    }, "perf-search-poller");
    poller.setDaemon(true);
    poller.start();
    try {
      long start = System.nanoTime();
      for (int i = 0; i < probes && failure.get() == null; i++) {
        while (outstanding.size() >= MAX_OUTSTANDING_PROBES && failure.get() == null) {
          Thread.sleep(1);
        }
        String value = "p-" + run + "-" + i;
        write(api, WriteEventRecordsRequest.newBuilder().setNamespace(NAMESPACE)
            .addEvents(data.extra(value, System.currentTimeMillis(), value)).build());
        outstanding.put(value, System.nanoTime());
        written.incrementAndGet();
        long sleep = start + (i + 1) * probeIntervalMs * 1_000_000L - System.nanoTime();
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

  // ---------------------------------------------------------------- setup

  private void createNamespace(ControlPlaneGrpc.ControlPlaneBlockingStub control, long dataFrom) throws Exception {
    CreateNamespaceRequest request = CreateNamespaceRequest.newBuilder().setNamespace(NAMESPACE)
        .addPersistenceConfiguration(PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE")
            .setPhysicalStorage(PhysicalStorage.newBuilder().setType("CASSANDRA").setDataset(NAMESPACE))
            .setConfig(StorageConfig.newBuilder()
                .setTimePartition(TimePartition.newBuilder().setSecondsPerTimeSlice(86_400)
                    .setSecondsPerTimeBucket(3600))
                .setConsistencyScope("LOCAL").setConsistencyTarget("STRONG")
                .setAcceptLimit(com.google.protobuf.Duration.newBuilder().setSeconds(129_600))))
        .addPersistenceConfiguration(PersistenceConfiguration.newBuilder().setId("INDEX_STORAGE")
            .setPhysicalStorage(PhysicalStorage.newBuilder().setType("OPENSEARCH").setCluster("local")
                .setDataset(INDEX_DATASET))
            .setConfig(StorageConfig.newBuilder()
                .setTimePartition(TimePartition.newBuilder().setSecondsPerSlice(86_400))
                .setAcceptLimit(com.google.protobuf.Duration.newBuilder().setSeconds(129_600))
                .setIndexConfig(IndexConfig.newBuilder()
                    .putFieldMapping(SearchEvents.DEVICE_TYPE, "KEYWORD")
                    .putFieldMapping(SearchEvents.COUNTRY, "KEYWORD")
                    .putFieldMapping(SearchEvents.DURATION, "INTEGER")
                    .putFieldMapping(SearchEvents.PROBE, "KEYWORD")
                    .setRefreshInterval(com.google.protobuf.Duration.newBuilder().setSeconds(1))
                    .setDocumentMode(documentMode))))
        .build();
    try {
      control.createNamespace(request);
    } catch (StatusRuntimeException e) {
      throw failed("CreateNamespace " + json(request), e);
    }
    // Writes need the time slices of the whole day; the server creates them in the background.
    long deadline = System.nanoTime() + Duration.ofMinutes(2).toNanos();
    while (true) {
      List<TimeSlice> slices = control.getNamespace(GetNamespaceRequest.newBuilder().setNamespace(NAMESPACE).build())
          .getTimeSlicesList();
      boolean covered = true;
      for (long t = dataFrom; t <= System.currentTimeMillis() + 60_000 && covered; t += HOUR) {
        long time = t;
        covered = slices.stream().anyMatch(s -> s.getStatus().equals("ACTIVE")
            && SearchEvents.millis(s.getStartTime()) <= time && time < SearchEvents.millis(s.getEndTime()));
      }
      if (covered) {
        return;
      }
      if (System.nanoTime() > deadline) {
        throw new IllegalStateException("the time slices of namespace " + NAMESPACE + " do not cover the last 24 h"
            + " after 2 minutes: " + slices);
      }
      Thread.sleep(500);
    }
  }

  private static void startServer(ServerProcess server, int port, InetSocketAddress cql, URI openSearch, int capacity)
      throws Exception {
    Path config = Files.createTempFile("varve-perf-search", ".yaml");
    config.toFile().deleteOnExit();
    Files.writeString(config, "cassandra:\n"
        + "  contactPoints: [\"" + cql.getHostString() + ":" + cql.getPort() + "\"]\n"
        + "  metadataKeyspace: " + METADATA_KEYSPACE + "\n"
        + "opensearch:\n"
        + "  urls: [\"" + openSearch + "\"]\n"
        + "  queueCapacity: " + capacity + "\n");
    server.start(List.of("--config", config.toString(), "--port", Integer.toString(port)), START_TIMEOUT);
  }

  /** Drops what a previous run left: the namespace's keyspace, the metadata keyspace, the namespace's indices. */
  private void dropData(CqlSession session, URI openSearch) throws Exception {
    for (String keyspace : List.of(NAMESPACE, METADATA_KEYSPACE)) {
      session.execute(SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
          .setTimeout(Duration.ofMinutes(1)));
    }
    String prefix = INDEX_DATASET + "." + NAMESPACE + ".";
    HttpResponse<String> list;
    try {
      list = http.send(HttpRequest.newBuilder(URI.create(openSearch + "/_cat/indices/" + prefix
          + "*?h=index&expand_wildcards=all")).timeout(Duration.ofSeconds(30)).build(), HttpResponse.BodyHandlers.ofString());
    } catch (IOException e) {
      throw new IllegalStateException("cannot reach OpenSearch at " + openSearch + ": " + e, e);
    }
    if (list.statusCode() != 200) {
      throw new IllegalStateException("listing the indices " + prefix + "* on " + openSearch + " answered HTTP "
          + list.statusCode() + ": " + list.body());
    }
    for (String index : list.body().split("\n")) {
      index = index.trim();
      if (index.startsWith(prefix)) {
        HttpResponse<String> deleted = http.send(HttpRequest.newBuilder(URI.create(openSearch + "/" + index))
            .timeout(Duration.ofSeconds(60)).DELETE().build(), HttpResponse.BodyHandlers.ofString());
        if (deleted.statusCode() != 200 && deleted.statusCode() != 404) {
          throw new IllegalStateException("deleting the index " + index + " answered HTTP " + deleted.statusCode()
              + ": " + deleted.body());
        }
      }
    }
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }

  // ---------------------------------------------------------------- helpers

  /** The server's Prometheus metrics, each series' value by its line's name and labels. */
  private Map<String, Double> metrics(String base) throws Exception {
    HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create(base + "/metrics"))
        .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
    Map<String, Double> values = new HashMap<>();
    for (String line : response.body().split("\n")) {
      int space = line.lastIndexOf(' ');
      if (line.startsWith("#") || space < 0) {
        continue;
      }
      try {
        values.put(line.substring(0, space), Double.parseDouble(line.substring(space + 1)));
      } catch (NumberFormatException e) {
        // not a sample line
      }
    }
    return values;
  }

  /** The sum of a metric's series. */
  private static double sum(Map<String, Double> metrics, String name) {
    return metrics.entrySet().stream().filter(e -> e.getKey().equals(name) || e.getKey().startsWith(name + "{"))
        .mapToDouble(Map.Entry::getValue).sum();
  }

  private String indexMetrics(String base) {
    try {
      Map<String, Double> m = metrics(base);
      StringBuilder s = new StringBuilder();
      for (String name : List.of("varve_index_queue_events", "varve_index_indexed_events_total",
          "varve_index_dropped_events_total", "varve_index_failed_events_total", "varve_index_skipped_events_total",
          "varve_index_unparsable_values_total")) {
        s.append(s.length() == 0 ? "" : ", ").append(name).append('=').append((long) sum(m, name));
      }
      return s.toString();
    } catch (Exception e) {
      return "(unavailable: " + e + ")";
    }
  }

  private static SearchQuery equals(String key, String value) {
    return SearchQuery.newBuilder().setEquals(EqualsQuery.newBuilder().setEventItemKey(bytes(key))
        .setEventItemValue(bytes(value))).build();
  }

  private static ByteString bytes(String text) {
    return ByteString.copyFromUtf8(text);
  }

  private static TimeInterval interval(long fromMillis, long toMillis) {
    return TimeInterval.newBuilder().setStart(SearchEvents.timestamp(fromMillis))
        .setEnd(SearchEvents.timestamp(toMillis)).build();
  }

  static String json(MessageOrBuilder message) {
    try {
      return JsonFormat.printer().omittingInsignificantWhitespace().print(message);
    } catch (com.google.protobuf.InvalidProtocolBufferException e) {
      return message.toString();
    }
  }

  private static String abbreviate(String text) {
    return text.length() <= 4000 ? text : text.substring(0, 4000) + "... (" + text.length() + " characters)";
  }

  /** An error answer of the server, with the request that got it. */
  private static IllegalStateException failed(String request, StatusRuntimeException e) {
    return new IllegalStateException("the server answered " + e.getStatus().getCode() + ": "
        + e.getStatus().getDescription() + "\nrequest: " + request, e);
  }

  private static java.util.concurrent.ThreadFactory daemon(String name) {
    return r -> {
      Thread t = new Thread(r, name);
      t.setDaemon(true);
      return t;
    };
  }

  private static void progress(String message) {
    System.err.println("perf search: " + message);
  }

  private void check(String option, int value, int min, int max) {
    if (value < min || value > max) {
      throw new ParameterException(spec.commandLine(), option + ": " + value + " (expected: " + min + ".." + max + ")");
    }
  }

  /** What the run started or created, undone in reverse order, once, by whichever of the end or Ctrl-C comes first. */
  private static final class Cleanup {

    interface Step {
      void run() throws Exception;
    }

    private final Deque<Map.Entry<String, Step>> steps = new ArrayDeque<>();

    synchronized void add(String name, Step step) {
      steps.push(Map.entry(name, step));
    }

    synchronized boolean pending() {
      return !steps.isEmpty();
    }

    synchronized void run() {
      while (!steps.isEmpty()) {
        Map.Entry<String, Step> step = steps.pop();
        try {
          step.getValue().run();
        } catch (Exception e) {
          System.err.println("perf search: could not " + step.getKey() + ": " + e);
        }
      }
    }
  }

  /** Writes to two streams. */
  private static final class Tee extends OutputStream {

    private final OutputStream a;
    private final OutputStream b;

    Tee(OutputStream a, OutputStream b) {
      this.a = a;
      this.b = b;
    }

    @Override
    public void write(int c) throws IOException {
      a.write(c);
      b.write(c);
    }

    @Override
    public void write(byte[] bytes, int off, int len) throws IOException {
      a.write(bytes, off, len);
      b.write(bytes, off, len);
    }

    @Override
    public void flush() throws IOException {
      a.flush();
      b.flush();
    }
  }
}
