package io.varve.perf.dataplane;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.QueueBuffering;
import io.varve.api.timeseries.v1.UpdateNamespaceRequest;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.client.CallSettings;
import io.varve.client.VarveClient;
import io.varve.perf.environment.BenchmarkCassandra;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.ServerJvm;
import io.varve.perf.environment.Testbed;
import io.varve.perf.environment.VarveServer;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import io.varve.perf.ts.EventGenerator;
import io.varve.perf.ts.RawCql;
import io.varve.perf.ts.TimeSeriesBenchmark;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code varve perf dataplane}: the resilient data plane, through the Java client ({@link
 * VarveClient}) of servers run as their own processes, in one run: {@link BufferedPhase}, {@link
 * BurstPhase}, {@link HedgePhase}, {@link GcPhase}, {@link OverloadPhase} (last: it leaves
 * Cassandra busy for minutes); then a verdict per goal. Namespace {@value #NAMESPACE} ({@code perf
 * ts}'s, with a queue of {@link #BUFFER_BYTES}) and the raw writer's table {@value #RAW_TABLE} are
 * dropped before and after the run with the servers' metadata keyspace.
 */
final class DataPlaneBenchmark {

  static final String NAMESPACE = "perf_dataplane";
  static final String METADATA_KEYSPACE = "varve_perf_dataplane";
  static final String RAW_TABLE = "perf_dataplane_raw.events";

  /**
   * The servers' {@code server.admission.bufferedWriteBytes} and the namespace's {@code
   * queueBuffering.bufferCapacity}: room for the whole burst at the rates of this machine (a 10 s
   * burst at 5x, drained at half the sustainable rate, queues up to about 100 MiB of events by the
   * buffer's estimate, 260 bytes an event), so that every event of the burst is accepted; the
   * overload fills it.
   */
  static final long BUFFER_BYTES = 512L << 20;

  /**
   * How long a latency phase waits at most for Cassandra to finish flushing and compacting what the
   * phases before it wrote ({@link CassandraSettle}).
   */
  static final Duration SETTLE_LIMIT = Duration.ofMinutes(3);

  /** The servers' {@code server.admission.writeBytes}: the bodies being decoded and written. */
  static final long WRITE_BYTES = 128L << 20;

  /**
   * The servers' JVM: {@code varve up}'s with a heap of 2 GiB, room for {@link #BUFFER_BYTES} of
   * queued events (the estimate is an upper bound of their heap) and {@link #WRITE_BYTES} of bodies
   * besides the server's own. With 384 MiB in {@code varve up}'s 1 GiB, one run of 2026-11-27
   * failed more calls of the burst and the overload (docs/performance-history.md).
   */
  static final ServerJvm SERVER_JVM = ServerJvm.UP.withHeap("2g");

  static final int EVENT_BUCKETS = TimeSeriesBenchmark.EVENT_BUCKETS;

  /** The goals of the figures, in the order printed. */
  static final Goals GOALS =
      new Goals(
          List.of(
              new Goals.Goal("buffered.ratio", true, 1.2),
              new Goals.Goal("burst.refused", false, 0),
              new Goals.Goal("burst.failed", false, 0),
              new Goals.Goal("burst.lost", false, 0),
              new Goals.Goal("burst.rate.max_deviation", false, 0.25),
              new Goals.Goal("overload.failed", false, 0),
              new Goals.Goal("overload.rss.ratio", false, 1),
              new Goals.Goal("hedge.p99.ratio", false, 0.3)));

  private final Environment environment;
  private final DataPlaneParameters parameters;

  DataPlaneBenchmark(Environment environment, DataPlaneParameters parameters) {
    this.environment = environment;
    this.parameters = parameters;
  }

  /**
   * Runs on the Cassandra at {@code cassandra} (host:port), or on the local one (started if need
   * be) when null.
   */
  void run(String cassandra, Figures out) throws Exception {
    printParameters(out);
    Testbed testbed =
        Testbed.open(
            environment,
            cassandra,
            METADATA_KEYSPACE,
            List.of(NAMESPACE, RAW_TABLE.substring(0, RAW_TABLE.indexOf('.'))),
            DataPlaneBenchmark::prepareSchema,
            "perf-dataplane-server",
            SERVER_JVM,
            DataPlaneBenchmark::configuration);
    CqlSession session = testbed.session();
    String configuration = testbed.serverConfiguration();
    VarveServer server = testbed.server();
    VarveClient api = client(server.apiAddress(), true);
    CallSettings control = CallSettings.defaults().withDeadline(Duration.ofMinutes(2));
    VarveClient.join(api.controlPlane().createNamespace(namespace(), control));
    VarveClient load = client(server.apiAddress(), false);
    EventGenerator events =
        new EventGenerator(1000, Duration.ofMinutes(50).toMillis(), Instant.now().minusSeconds(60));
    ProbeSeries.write(api.timeSeries(), events);
    // started now, not before its phase: a JVM a few seconds old spends the hedging phase
    // compiling (2026-11-28: its compiler took half a core, its median read was twice the first
    // server's), which measures its start rather than hedging
    environment.progress("the second server of the hedged reads, started before the write phases");
    VarveServer slowed =
        VarveServer.start(environment, "perf-dataplane-server-b", configuration, SERVER_JVM);
    BufferMetrics buffer = new BufferMetrics(URI.create(server.apiAddress()));
    Map<String, Double> goals = new LinkedHashMap<>();
    Figures figures = out.keeping(GOALS.figures(), goals);

    environment.progress(
        "buffered writes against raw CQL (" + parameters.warmup().toSeconds() + " s of warm-up)");
    RawCql raw =
        new RawCql(
            session,
            RAW_TABLE,
            DefaultConsistencyLevel.LOCAL_QUORUM,
            TimeSeriesBenchmark.MAX_IN_FLIGHT,
            TimeSeriesBenchmark.BUCKET_MILLIS,
            EVENT_BUCKETS);
    double measured =
        new BufferedPhase(parameters, events).run(figures, api.timeSeries(), raw, buffer);
    double sustainable = parameters.sustainableRate() > 0 ? parameters.sustainableRate() : measured;
    figures.put("sustainable.events_per_s", Math.round(sustainable));
    figures.put("sustainable.source", parameters.sustainableRate() > 0 ? "given" : "measured");
    OpenLoad openLoad =
        new OpenLoad(load.timeSeries(), NAMESPACE, parameters.batch(), parameters.loadInFlight());
    environment.progress("burst at " + parameters.burstFactor() + "x the sustainable rate");
    new BurstPhase(parameters, events)
        .run(
            figures,
            openLoad,
            buffer,
            new CassandraWrites(session, NAMESPACE),
            sustainable,
            rate -> VarveClient.join(api.controlPlane().updateNamespace(drainRate(rate), control)));
    CassandraSettle settle = new CassandraSettle(session);
    environment.progress("hedged reads: the second server behind a delaying proxy");
    figures.put("hedge.cassandra_settle_s", settle.await(SETTLE_LIMIT));
    new HedgePhase(parameters).run(figures, hostPort(server), address(slowed), parameters.warmup());
    environment.progress("garbage collectors");
    figures.put("gc.cassandra_settle_s", settle.await(SETTLE_LIMIT));
    new GcPhase(parameters, events).run(figures, environment, configuration);
    // last: the millions of events it writes keep Cassandra flushing and compacting after it
    environment.progress("overload at " + parameters.overloadFactor() + "x");
    new OverloadPhase(parameters, events)
        .run(figures, openLoad, buffer, api.timeSeries(), server.pid(), sustainable);
    GOALS.print(goals, out);
  }

  private void printParameters(Figures out) {
    out.put("machine.cores", Runtime.getRuntime().availableProcessors());
    out.put("machine.java", System.getProperty("java.version"));
    out.put("parameters.warmup_s", parameters.warmup().toSeconds());
    out.put("parameters.events", parameters.events());
    out.put("parameters.rounds", parameters.rounds());
    out.put("parameters.batch", parameters.batch());
    out.put("parameters.concurrency", parameters.concurrency());
    out.put("parameters.load_in_flight", parameters.loadInFlight());
    out.put("parameters.burst_s", parameters.burstDuration().toSeconds());
    out.put("parameters.overload_s", parameters.overloadDuration().toSeconds());
    out.put("parameters.buffer_bytes", BUFFER_BYTES);
    out.put("parameters.write_bytes", WRITE_BYTES);
    out.put("parameters.server_heap", SERVER_JVM.heap());
    out.put("parameters.consistency", "LOCAL_QUORUM");
  }

  /**
   * The servers' configuration: the Cassandra, and admission budgets of {@link #BUFFER_BYTES} and
   * {@link #WRITE_BYTES}.
   */
  private static String configuration(BenchmarkCassandra target) {
    return target.serverConfiguration()
        + "server:\n  admission:\n    bufferedWriteBytes: "
        + BUFFER_BYTES
        + "\n    writeBytes: "
        + WRITE_BYTES
        + "\n";
  }

  /** A client of one server; {@code retrying}: the default retries, else none. */
  private VarveClient client(String apiAddress, boolean retrying) {
    var builder = VarveClient.builder().endpoint(URI.create(apiAddress));
    if (!retrying) {
      builder.retries(0, Duration.ofMillis(50), Duration.ofSeconds(2));
    }
    return environment.closeAtEnd("close a client", builder.build());
  }

  private static String hostPort(VarveServer server) {
    URI uri = URI.create(server.apiAddress());
    return uri.getHost() + ":" + uri.getPort();
  }

  private static InetSocketAddress address(VarveServer server) {
    URI uri = URI.create(server.apiAddress());
    return new InetSocketAddress(uri.getHost(), uri.getPort());
  }

  /** {@code perf ts}'s namespace, with a queue of {@link #BUFFER_BYTES}. */
  private static CreateNamespaceRequest namespace() {
    CreateNamespaceRequest.Builder request =
        TimeSeriesBenchmark.namespace(NAMESPACE, EVENT_BUCKETS).toBuilder();
    request
        .getPersistenceConfigurationBuilder(0)
        .getConfigBuilder()
        .setQueueBuffering(
            QueueBuffering.newBuilder()
                .setCoalesce(com.google.protobuf.Duration.newBuilder().setSeconds(1))
                .setBufferCapacity(BUFFER_BYTES));
    return request.build();
  }

  /**
   * An UpdateNamespace of {@link #namespace()} with {@code queueBuffering.drainRate} {@code rate}.
   */
  private static UpdateNamespaceRequest drainRate(long rate) {
    CreateNamespaceRequest created = namespace();
    UpdateNamespaceRequest.Builder update =
        UpdateNamespaceRequest.newBuilder()
            .setNamespace(created.getNamespace())
            .addAllPersistenceConfiguration(created.getPersistenceConfigurationList());
    update
        .getPersistenceConfigurationBuilder(0)
        .getConfigBuilder()
        .getQueueBufferingBuilder()
        .setDrainRate(rate);
    return update.build();
  }

  /** Creates the raw writer's table (the testbed dropped what an earlier run left). */
  private static void prepareSchema(CqlSession session, CassandraSettings settings) {
    String keyspace = RAW_TABLE.substring(0, RAW_TABLE.indexOf('.'));
    CqlSliceTables tables =
        new CqlSliceTables(session, settings.replication(), settings.schemaTimeout());
    tables.createKeyspaceIfMissing(keyspace).toCompletableFuture().join();
    tables
        .create(keyspace, RAW_TABLE.substring(keyspace.length() + 1))
        .toCompletableFuture()
        .join();
  }
}
