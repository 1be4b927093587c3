package io.varve.cli.perf;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.linecorp.armeria.client.grpc.GrpcClients;
import io.varve.api.timeseries.v1.ControlPlaneGrpc;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.api.timeseries.v1.TimeSeriesGrpc;
import io.varve.api.timeseries.v1.WriteEventRecordsRequest;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.cassandra.session.Sessions;
import io.varve.local.LocalCassandra;
import io.varve.local.LocalCassandraSettings;
import io.varve.local.VarveHome;
import io.varve.cli.ServerProcess;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Semaphore;
import java.util.function.Function;
import org.HdrHistogram.Histogram;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Option;

/**
 * {@code varve perf ts}: the TimeSeries service (run as its own process, as {@code varve up} runs
 * it) against a plain CQL client on the same Cassandra, in one run. (a) N events written through the server's gRPC API vs the same rows by a raw async
 * CQL writer (prepared statements, LOCAL_QUORUM, the same partitions, the same in-flight budget);
 * (b) ReadEventRecords of a 1-hour window of a series holding 100 events vs the raw read of the
 * same 100 events from one partition. Prints key=value lines.
 *
 * <p>The figures are steady-state ones: both sides first write for {@code --warmup} seconds
 * (alternating), because on a small machine the server's JIT compilers need minutes of load to
 * compile its hot paths, and the reads are warmed up for half as long. The CPU lines split out
 * each JVM's JIT time ({@code *_jit}) so a reader can see whether compilation was still running.
 */
@Command(name = "ts", mixinStandardHelpOptions = true, description = "Benchmark TimeSeries writes and reads against raw CQL on the local Cassandra.")
public final class TimeSeriesPerf implements Callable<Integer> {

  @Spec
  CommandSpec spec;

  @Option(names = "--events", defaultValue = "200000", description = "Events written per side (default: ${DEFAULT-VALUE}).")
  int events;

  @Option(names = "--batch", defaultValue = "100", description = "Events per write request (default: ${DEFAULT-VALUE}).")
  int batch;

  @Option(names = "--concurrency", defaultValue = "16", description = "Write requests in flight (default: ${DEFAULT-VALUE}).")
  int concurrency;

  @Option(names = "--reads", defaultValue = "3000", description = "Measured reads per side (default: ${DEFAULT-VALUE}).")
  int reads;

  @Option(names = "--warmup", defaultValue = "180", description = "Seconds of writes (both sides, alternating) before"
      + " the measured write phases; half as long again warms up the reads (default: ${DEFAULT-VALUE}).")
  int warmupSeconds;

  @Option(names = "--cassandra", description = "Use this Cassandra (host:port) instead of starting the local one.")
  String cassandra;

  private java.util.OptionalLong cassandraPid = java.util.OptionalLong.empty();

  static final String NAMESPACE = "perf_ts";
  static final String READ_NAMESPACE = "perf_ts_read";
  static final String RAW_KEYSPACE = "perf_raw";
  static final int MAX_IN_FLIGHT = 1024;
  static final long BUCKET_MILLIS = 3_600_000;
  static final int EVENT_BUCKETS = 4;

  @Override
  public Integer call() throws Exception {
    check("--batch", batch, 1, 1000);
    check("--events", events, 2 * batch, 100_000_000);
    check("--concurrency", concurrency, 1, 1024);
    check("--reads", reads, 10, 10_000_000);
    check("--warmup", warmupSeconds, 0, 3600);
    Figures out = new Figures(System.out);
    LocalCassandra started = null;
    cassandraPid = java.util.OptionalLong.empty();
    InetSocketAddress address;
    if (cassandra != null) {
      address = io.varve.server.config.ServerSettings.contactPoint("--cassandra", cassandra);
    } else {
      LocalCassandra local = new LocalCassandra(LocalCassandraSettings.forDevelopment(VarveHome.locate()));
      if (!local.status().isRunning()) {
        started = local;
      }
      local.start();
      local.awaitReady(Duration.ofMinutes(3));
      address = local.settings().cqlAddress();
      cassandraPid = java.util.OptionalLong.of(local.status().pid());
    }
    try {
      return run(out, address);
    } finally {
      if (started != null) {
        started.stop(Duration.ofMinutes(1));
      }
    }
  }

  private int run(Figures out, InetSocketAddress address) throws Exception {
    CassandraSettings cassandraSettings = CassandraSettings.local(address.getPort())
        .withContactPoints(List.of(address)).withMetadataKeyspace("varve_perf");
    out.put("machine.cores", Runtime.getRuntime().availableProcessors());
    out.put("machine.java", System.getProperty("java.version"));
    try (CqlSession raw = Sessions.open(cassandraSettings).toCompletableFuture().join()) {
      prepareSchema(raw, cassandraSettings);
      ServerProcess server = startServer(address, cassandraSettings.metadataKeyspace());
      try {
        String base = server.apiAddress();
        ControlPlaneGrpc.ControlPlaneBlockingStub control = GrpcClients.builder(base)
            .build(ControlPlaneGrpc.ControlPlaneBlockingStub.class);
        control.createNamespace(namespace(NAMESPACE, EVENT_BUCKETS));
        control.createNamespace(namespace(READ_NAMESPACE, 1));
        TimeSeriesGrpc.TimeSeriesFutureStub async = GrpcClients.builder(base).maxResponseLength(0)
            .build(TimeSeriesGrpc.TimeSeriesFutureStub.class);
        TimeSeriesGrpc.TimeSeriesBlockingStub blocking = GrpcClients.builder(base).maxResponseLength(0)
            .build(TimeSeriesGrpc.TimeSeriesBlockingStub.class);
        RawCql rawCql = new RawCql(raw, RAW_KEYSPACE + ".events", DefaultConsistencyLevel.LOCAL_QUORUM, MAX_IN_FLIGHT,
            BUCKET_MILLIS, EVENT_BUCKETS);
        CpuMeter cpu = new CpuMeter().add("client", ProcessHandle.current().pid())
            .add("server", server.running().map(ProcessHandle::pid).orElse(-1L));
        cassandraPid.ifPresent(pid -> cpu.add("cassandra", pid));
        writes(out, async, rawCql, cpu);
        reads(out, async, blocking, rawCql, base);
      } finally {
        server.stop(Duration.ofSeconds(30));
      }
    }
    return 0;
  }

  /**
   * Starts the server as its own process, as deployed (its own JVM and heap, flags of
   * {@code varve up}), so that the benchmark client's allocations do not pause it.
   */
  private static ServerProcess startServer(InetSocketAddress cassandra, String metadataKeyspace) throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }
    Path config = Files.createTempFile("varve-perf", ".yaml");
    config.toFile().deleteOnExit();
    Files.writeString(config, "cassandra:\n  contactPoints: [\"" + cassandra.getHostString() + ":" + cassandra.getPort()
        + "\"]\n  metadataKeyspace: " + metadataKeyspace + "\n");
    ServerProcess server = new ServerProcess(VarveHome.locate(), "perf-server", port);
    server.start(List.of("--config", config.toString(), "--port", Integer.toString(port)), Duration.ofMinutes(2));
    return server;
  }

  private void check(String option, int value, int min, int max) {
    if (value < min || value > max) {
      throw new ParameterException(spec.commandLine(), option + ": " + value + " (expected: " + min + ".." + max + ")");
    }
  }

  private static void prepareSchema(CqlSession raw, CassandraSettings settings) {
    for (String keyspace : List.of(NAMESPACE, READ_NAMESPACE, RAW_KEYSPACE, settings.metadataKeyspace())) {
      raw.execute(com.datastax.oss.driver.api.core.cql.SimpleStatement
          .newInstance("DROP KEYSPACE IF EXISTS " + keyspace).setTimeout(Duration.ofMinutes(1)));
    }
    CqlSliceTables tables = new CqlSliceTables(raw, settings.replication(), settings.schemaTimeout());
    tables.createKeyspaceIfMissing(RAW_KEYSPACE).toCompletableFuture().join();
    tables.create(RAW_KEYSPACE, "events").toCompletableFuture().join();
  }

  private static CreateNamespaceRequest namespace(String name, int eventBuckets) {
    return CreateNamespaceRequest.newBuilder().setNamespace(name)
        .addPersistenceConfiguration(PersistenceConfiguration.newBuilder().setId("PRIMARY_STORAGE")
            .setConfig(StorageConfig.newBuilder()
                .setTimePartition(TimePartition.newBuilder().setSecondsPerTimeSlice(86_400)
                    .setSecondsPerTimeBucket(BUCKET_MILLIS / 1000).setEventBuckets(eventBuckets))
                .setConsistencyScope("LOCAL").setConsistencyTarget("STRONG")
                .setAcceptLimit(com.google.protobuf.Duration.newBuilder().setSeconds(6 * 3600))))
        .build();
  }

  private void writes(Figures out, TimeSeriesGrpc.TimeSeriesFutureStub varve, RawCql raw, CpuMeter cpu)
      throws Exception {
    EventGenerator generator = new EventGenerator(1000, Duration.ofMinutes(50).toMillis(), Instant.now().minusSeconds(60));
    Function<List<Event>, CompletionStage<?>> viaVarve = batchEvents -> toStage(varve.writeEventRecordsSync(
        WriteEventRecordsRequest.newBuilder().setNamespace(NAMESPACE).addAllEvents(batchEvents).build()))
        .thenAccept(r -> {
          if (r.getWrittenCount() != batchEvents.size()) {
            throw new IllegalStateException("write refused events: " + r.getErrorsList());
          }
        });
    Function<List<Event>, CompletionStage<?>> viaRaw = raw::write;
    // On two cores both JVMs compile their hot paths for minutes; measure after that.
    int chunk = Math.max(batch, events / 10);
    int warmupEvents = 0;
    long warmupStart = System.nanoTime();
    do {
      run(generator.batches("warm-v" + warmupEvents + "-", chunk, batch), viaVarve);
      run(generator.batches("warm-r" + warmupEvents + "-", chunk, batch), viaRaw);
      warmupEvents += chunk;
    } while (System.nanoTime() - warmupStart < warmupSeconds * 1_000_000_000L);
    out.put("write.warmup_seconds", (System.nanoTime() - warmupStart) / 1e9);
    out.put("write.warmup_events_per_side", warmupEvents);
    double varveSeconds = 0;
    double rawSeconds = 0;
    Map<String, Duration> varveCpu = new LinkedHashMap<>();
    Map<String, Duration> rawCpu = new LinkedHashMap<>();
    for (int round = 0; round < 2; round++) {
      int half = events / 2;
      // alternate which side goes first, so neither always inherits the other's flush and compaction work
      for (boolean rawTurn : round == 0 ? new boolean[] {true, false} : new boolean[] {false, true}) {
        List<List<Event>> batches = generator.batches((rawTurn ? "r" : "v") + round + "-", half, batch);
        Map<String, Duration> before = cpu.sample();
        double seconds = run(batches, rawTurn ? viaRaw : viaVarve);
        if (rawTurn) {
          rawSeconds += seconds;
          cpu.accumulate(before, rawCpu);
        } else {
          varveSeconds += seconds;
          cpu.accumulate(before, varveCpu);
        }
      }
    }
    int measured = (events / 2) * 2;
    rawCpu.forEach((name, d) -> out.put("write.raw.cpu_ms_per_1k_events." + name, d.toMillis() * 1000.0 / measured));
    varveCpu.forEach((name, d) -> out.put("write.varve.cpu_ms_per_1k_events." + name, d.toMillis() * 1000.0 / measured));
    out.put("write.events", measured);
    out.put("write.batch", batch);
    out.put("write.concurrency", concurrency);
    out.put("write.varve.events_per_s", measured / varveSeconds);
    out.put("write.raw.events_per_s", measured / rawSeconds);
    out.put("write.ratio", rawSeconds / varveSeconds);
  }

  /** Runs the batches with {@code concurrency} in flight; returns the elapsed seconds. */
  private double run(List<List<Event>> batches, Function<List<Event>, CompletionStage<?>> write) throws Exception {
    Semaphore permits = new Semaphore(concurrency);
    CompletableFuture<?>[] all = new CompletableFuture<?>[batches.size()];
    long start = System.nanoTime();
    for (int i = 0; i < batches.size(); i++) {
      permits.acquire();
      all[i] = write.apply(batches.get(i)).whenComplete((r, e) -> permits.release()).toCompletableFuture();
    }
    CompletableFuture.allOf(all).join();
    return (System.nanoTime() - start) / 1e9;
  }

  /**
   * Reads of a 1-hour window holding 100 events (200 item rows). The headline compares the read of
   * a namespace with one event bucket (one partition, like the raw read) with the raw read; the
   * same read on the 4-event-bucket namespace (4 partitions scanned in parallel and merged) and
   * over HTTP/JSON are printed beside it.
   */
  private void reads(Figures out, TimeSeriesGrpc.TimeSeriesFutureStub async, TimeSeriesGrpc.TimeSeriesBlockingStub varve,
      RawCql raw, String base) throws Exception {
    Instant hour = Instant.now().truncatedTo(ChronoUnit.HOURS).minus(Duration.ofHours(2));
    long from = hour.toEpochMilli();
    long to = from + BUCKET_MILLIS;
    EventGenerator generator = new EventGenerator(1, BUCKET_MILLIS, hour);
    List<Event> hundred = new java.util.ArrayList<>();
    for (int i = 0; i < 100; i++) {
      hundred.add(generator.event("reader", from + i * 36_000L, String.format("read-%03d", i)));
    }
    for (String ns : List.of(NAMESPACE, READ_NAMESPACE)) {
      async.writeEventRecordsSync(WriteEventRecordsRequest.newBuilder().setNamespace(ns).addAllEvents(hundred).build())
          .get();
    }
    List<Event> onePartition = hundred.stream().map(e -> e.toBuilder().setTimeSeriesId("reader-raw").build()).toList();
    new RawCql(raw.session(), RAW_KEYSPACE + ".events", DefaultConsistencyLevel.LOCAL_QUORUM, MAX_IN_FLIGHT,
        BUCKET_MILLIS, 1).write(onePartition).toCompletableFuture().join();

    ReadEventRecordsRequest one = readRequest(READ_NAMESPACE, from, to);
    ReadEventRecordsRequest four = readRequest(NAMESPACE, from, to);
    HttpClient http = HttpClient.newHttpClient();
    HttpRequest httpRequest = HttpRequest.newBuilder(URI.create(base + "/v1/ReadEventRecords"))
        .header("Content-Type", "application/json")
        .POST(HttpRequest.BodyPublishers.ofString(com.google.protobuf.util.JsonFormat.printer().print(one))).build();

    Histogram varveOne = new Histogram(60_000_000L, 3);
    Histogram varveFour = new Histogram(60_000_000L, 3);
    Histogram varveHttp = new Histogram(60_000_000L, 3);
    Histogram rawRead = new Histogram(60_000_000L, 3);
    // warm-up: at least a tenth of the measured reads, and until half of --warmup has passed
    long readWarmupEnd = System.nanoTime() + warmupSeconds * 500_000_000L;
    int warmupReads = 0;
    for (int i = 0; i < reads + warmupReads; i++) {
      boolean warming = i < reads / 10 || System.nanoTime() < readWarmupEnd && i == warmupReads;
      if (warming) {
        warmupReads++;
      }
      long t0 = System.nanoTime();
      int rows = raw.read("reader-raw", from, 0, from, to);
      long t1 = System.nanoTime();
      int eventsOne = varve.readEventRecords(one).getEventsCount();
      long t2 = System.nanoTime();
      int eventsFour = varve.readEventRecords(four).getEventsCount();
      long t3 = System.nanoTime();
      int status = http.send(httpRequest, HttpResponse.BodyHandlers.ofString()).statusCode();
      long t4 = System.nanoTime();
      if (rows != 200 || eventsOne != 100 || eventsFour != 100 || status != 200) {
        throw new IllegalStateException("reads returned raw " + rows + " rows, " + eventsOne + " and " + eventsFour
            + " events, HTTP " + status);
      }
      if (!warming) {
        rawRead.recordValue((t1 - t0) / 1000);
        varveOne.recordValue((t2 - t1) / 1000);
        varveFour.recordValue((t3 - t2) / 1000);
        varveHttp.recordValue((t4 - t3) / 1000);
      }
    }
    out.put("read.events", 100);
    out.put("read.iterations", reads);
    out.put("read.warmup_iterations", warmupReads);
    out.latency("read.raw", rawRead);
    out.latency("read.varve", varveOne);
    out.latency("read.varve_4_event_buckets", varveFour);
    out.latency("read.varve_http", varveHttp);
    out.put("read.p50.ratio", (double) varveOne.getValueAtPercentile(50) / rawRead.getValueAtPercentile(50));
    out.put("read.p99.ratio", (double) varveOne.getValueAtPercentile(99) / rawRead.getValueAtPercentile(99));
    out.put("read.p99.ratio_4_event_buckets",
        (double) varveFour.getValueAtPercentile(99) / rawRead.getValueAtPercentile(99));
  }

  private static ReadEventRecordsRequest readRequest(String namespace, long from, long to) {
    return ReadEventRecordsRequest.newBuilder().setNamespace(namespace).setTimeSeriesId("reader").setPageSize(100)
        .setTimeInterval(TimeInterval.newBuilder()
            .setStart(com.google.protobuf.Timestamp.newBuilder().setSeconds(from / 1000))
            .setEnd(com.google.protobuf.Timestamp.newBuilder().setSeconds(to / 1000)))
        .build();
  }

  private static <T> CompletionStage<T> toStage(com.google.common.util.concurrent.ListenableFuture<T> future) {
    CompletableFuture<T> stage = new CompletableFuture<>();
    future.addListener(() -> {
      try {
        stage.complete(future.get());
      } catch (Exception e) {
        stage.completeExceptionally(e.getCause() != null ? e.getCause() : e);
      }
    }, Runnable::run);
    return stage;
  }
}
