package io.varve.perf.ts;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.api.timeseries.v1.CreateNamespaceRequest;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.api.timeseries.v1.TimePartition;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.client.CallSettings;
import io.varve.client.VarveClient;
import io.varve.perf.environment.BenchmarkCassandra;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.ServerJvm;
import io.varve.perf.environment.VarveServer;
import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Figures;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.List;

/**
 * {@code varve perf ts}: the TimeSeries service (run as its own process, as {@code varve up} runs
 * it) against a plain CQL client on the same Cassandra, in one run: the {@link WritePhase} (N
 * events through the server's gRPC API vs the same rows by a raw async CQL writer) then the {@link
 * ReadPhase} (ReadEventRecords of a 1-hour window vs the raw read of the same rows). Prints {@code
 * key=value} lines.
 *
 * <p>The figures are steady-state ones: both sides first write for {@code --warmup} seconds
 * (alternating), because on a small machine the server's JIT compilers need minutes of load to
 * compile its hot paths, and the reads are warmed up for half as long. The CPU lines split out each
 * JVM's JIT time ({@code *_jit}) so a reader can see whether compilation was still running.
 */
public final class TimeSeriesBenchmark {

  /** The namespace of the writes (4 event buckets), also read from. */
  static final String NAMESPACE = "perf_ts";

  /** The namespace of the headline read: 1 event bucket, so both sides read one partition. */
  static final String READ_NAMESPACE = "perf_ts_read";

  /** The raw client's keyspace, holding one table of the slice-table schema. */
  static final String RAW_TABLE = "perf_raw.events";

  /** The bare hop's writes, a table of its own beside the raw client's. */
  static final String HOP_TABLE = "perf_raw.hop_events";

  /** The raw writer's statements in flight: the server's {@code cassandra.maxInFlightWrites}. */
  public static final int MAX_IN_FLIGHT = 1024;

  /** The namespaces' time buckets, which the raw writer's partitions follow. */
  public static final long BUCKET_MILLIS = 3_600_000;

  /** The write namespace's event buckets. */
  public static final int EVENT_BUCKETS = 4;

  /** Armeria's default, which the benchmark always had. */
  static final Duration RESPONSE_TIMEOUT = Duration.ofSeconds(10);

  private final Environment environment;
  private final WritePhase writes;
  private final ReadPhase reads;

  TimeSeriesBenchmark(Environment environment, WritePhase writes, ReadPhase reads) {
    this.environment = environment;
    this.writes = writes;
    this.reads = reads;
  }

  /**
   * Runs on the Cassandra at {@code cassandra} (host:port), or on the local one (started if need
   * be) when null.
   */
  void run(String cassandra, Figures out) throws Exception {
    BenchmarkCassandra target = BenchmarkCassandra.of(environment, cassandra, "varve_perf");
    CassandraSettings settings = target.settings();
    out.put("machine.cores", Runtime.getRuntime().availableProcessors());
    out.put("machine.java", System.getProperty("java.version"));
    CqlSession raw = target.session(environment);
    prepareSchema(raw, settings);
    VarveServer server =
        VarveServer.start(environment, "perf-server", target.serverConfiguration());
    VarveClient client = server.client(environment, RESPONSE_TIMEOUT);
    for (CreateNamespaceRequest namespace :
        List.of(namespace(NAMESPACE, EVENT_BUCKETS), namespace(READ_NAMESPACE, 1))) {
      VarveClient.join(client.controlPlane().createNamespace(namespace, CallSettings.defaults()));
    }
    InetSocketAddress cql = settings.contactPoints().get(0);
    TimeSeriesHop.Process hop =
        environment.closeAtEnd(
            "stop the bare hop",
            TimeSeriesHop.Process.start(
                ServerJvm.UP.arguments(),
                cql.getHostString() + ":" + cql.getPort(),
                HOP_TABLE,
                RAW_TABLE,
                BUCKET_MILLIS,
                EVENT_BUCKETS,
                environment.home().resolve(".varve/perf-server/bare-hop.log")));
    CpuMeter cpu =
        new CpuMeter()
            .add("client", ProcessHandle.current().pid())
            .add("server", server.pid())
            .add("hop", hop.pid());
    target.pid().ifPresent(pid -> cpu.add("cassandra", pid));
    writes.run(
        out,
        client.timeSeries(),
        new RawCql(
            raw,
            RAW_TABLE,
            DefaultConsistencyLevel.LOCAL_QUORUM,
            MAX_IN_FLIGHT,
            BUCKET_MILLIS,
            EVENT_BUCKETS),
        hop,
        cpu);
    reads.run(out, server, client.timeSeries(), raw, hop);
  }

  /** Drops what an earlier run left and creates the raw client's table. */
  private static void prepareSchema(CqlSession raw, CassandraSettings settings) {
    String rawKeyspace = RAW_TABLE.substring(0, RAW_TABLE.indexOf('.'));
    for (String keyspace :
        List.of(NAMESPACE, READ_NAMESPACE, rawKeyspace, settings.metadataKeyspace())) {
      raw.execute(
          SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
              .setTimeout(Duration.ofMinutes(1)));
    }
    CqlSliceTables tables =
        new CqlSliceTables(raw, settings.replication(), settings.schemaTimeout());
    tables.createKeyspaceIfMissing(rawKeyspace).toCompletableFuture().join();
    for (String table : List.of(RAW_TABLE, HOP_TABLE)) {
      tables
          .create(rawKeyspace, table.substring(rawKeyspace.length() + 1))
          .toCompletableFuture()
          .join();
    }
  }

  /**
   * A TimeSeries namespace of the benchmarks: 1-day slices, 1-hour buckets, {@code eventBuckets}
   * event buckets, LOCAL / STRONG, writes accepted 6 hours back.
   */
  public static CreateNamespaceRequest namespace(String name, int eventBuckets) {
    return CreateNamespaceRequest.newBuilder()
        .setNamespace(name)
        .addPersistenceConfiguration(
            PersistenceConfiguration.newBuilder()
                .setId("PRIMARY_STORAGE")
                .setConfig(
                    StorageConfig.newBuilder()
                        .setTimePartition(
                            TimePartition.newBuilder()
                                .setSecondsPerTimeSlice(86_400)
                                .setSecondsPerTimeBucket(BUCKET_MILLIS / 1000)
                                .setEventBuckets(eventBuckets))
                        .setConsistencyScope("LOCAL")
                        .setConsistencyTarget("STRONG")
                        .setAcceptLimit(
                            com.google.protobuf.Duration.newBuilder().setSeconds(6 * 3600))))
        .build();
  }
}
