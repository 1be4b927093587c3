package io.varve.perf.kv;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import io.varve.cassandra.kv.CqlItemTables;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.client.VarveClient;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvNamespace;
import io.varve.core.namespace.Consistency;
import io.varve.perf.environment.BenchmarkCassandra;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.ServerJvm;
import io.varve.perf.environment.Testbed;
import io.varve.perf.environment.VarveServer;
import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Figures;
import io.varve.perf.measure.Goals;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * {@code varve perf kv}: the KeyValue service (run as its own process, as {@code varve up} runs it)
 * against a plain CQL client on the same Cassandra, in one run: {@link PutPhase}, {@link GetPhase},
 * {@link PagePhase}, {@link ChunkedPhase}, {@link AmplificationPhase}; then a verdict per goal
 * ({@link #GOALS}). Every namespace's table and the raw table are in keyspace {@value #KEYSPACE},
 * dropped before and after the run with the server's metadata keyspace.
 */
final class KvBenchmark {

  static final String KEYSPACE = "perf_kv";
  static final String METADATA_KEYSPACE = "varve_perf_kv";

  /** The namespace of the put and get comparisons. */
  static final String NAMESPACE = "perf_kv";

  /** The raw client's table: the shape of an item table. */
  static final String RAW_TABLE = "raw_items";

  /** The bare hop's table, of the same shape: each side writes rows of its own. */
  static final String HOP_TABLE = "hop_items";

  /** The page size of every read: GetItems' default. */
  static final int PAGE_BYTES = KvLimits.DEFAULT.defaultPageSizeBytes();

  /** Bounds of a PutItems request the set-up writes make (the server's defaults, a margin). */
  static final int MAX_REQUEST_ITEMS = KvLimits.DEFAULT.maxItemsPerRequest();

  static final long MAX_REQUEST_BYTES = KvLimits.DEFAULT.maxRequestBytes() - 64 * 1024;

  /** The goals of the figures, in the order printed. */
  static final Goals GOALS =
      new Goals(
          List.of(
              new Goals.Goal("put.varve_to_hop.ratio", true, 0.92),
              new Goals.Goal("put.server.cpu_per_item.ratio", false, 1.25),
              new Goals.Goal("put.client.cpu_per_item.ratio", false, 1.2),
              new Goals.Goal("get.varve_to_hop.p99.ratio", false, 1.1),
              new Goals.Goal("page.100b.p99.ratio", false, 1.5),
              new Goals.Goal("chunked.put.ratio", true, 0.7),
              new Goals.Goal("chunked.get.ratio", true, 0.7),
              new Goals.Goal("read_amplification", false, 1.2)));

  private final Environment environment;
  private final KvParameters parameters;

  KvBenchmark(Environment environment, KvParameters parameters) {
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
            List.of(KEYSPACE),
            "perf-kv-server",
            BenchmarkCassandra::serverConfiguration);
    BenchmarkCassandra target = testbed.cassandra();
    CqlSession session = testbed.session();
    VarveServer server = testbed.server();
    VarveClient client = server.client(environment, KvApi.RESPONSE_TIMEOUT);
    KvApi.createNamespace(client, NAMESPACE, KEYSPACE, "items");
    KvApi.createNamespace(client, AmplificationPhase.NAMESPACE, KEYSPACE, "mixed");
    PagePhase.createNamespaces(client);
    RawItems raw = itemTable(session, target.settings(), RAW_TABLE);
    itemTable(session, target.settings(), HOP_TABLE);
    KvApi api = new KvApi(client);
    InetSocketAddress cql = target.settings().contactPoints().get(0);
    BareHop.Process hop =
        environment.closeAtEnd(
            "stop the bare hop",
            BareHop.Process.start(
                ServerJvm.UP.arguments(),
                cql.getHostString() + ":" + cql.getPort(),
                KEYSPACE + "." + HOP_TABLE,
                environment.home().resolve(".varve/perf-kv-server/bare-hop.log")));
    CpuMeter cpu =
        new CpuMeter()
            .add("client", ProcessHandle.current().pid())
            .add("server", server.pid())
            .add("hop", hop.pid());
    target.pid().ifPresent(pid -> cpu.add("cassandra", pid));
    ItemData data = new ItemData(42);
    Map<String, Double> goals = new LinkedHashMap<>();
    if (parameters.runs("put")) {
      environment.progress(
          "puts: "
              + seconds(parameters.warmup())
              + " warm-up and rounds until the JIT compilers settle, then measured");
      new PutPhase(parameters, data)
          .run(tee(out, goals), api, raw, hop, cpu, environment::progress);
    }
    if (parameters.runs("get")) {
      environment.progress("gets of 100 items of 1 KiB");
      new GetPhase(parameters, data).run(tee(out, goals), api, raw, hop);
    }
    if (parameters.runs("page")) {
      environment.progress("full pages of 100 B, 10 KiB and 1 MiB items");
      new PagePhase(parameters, data).run(tee(out, goals), api, session);
    }
    if (parameters.runs("chunked")) {
      environment.progress("values of 16 MiB, stored in chunks");
      new ChunkedPhase(43).run(tee(out, goals), api, raw, hop, cpu, parameters.warmup());
    }
    if (parameters.runs("amplification")) {
      environment.progress("read amplification over a record of mixed item sizes");
      new AmplificationPhase(parameters, data)
          .run(tee(out, goals), api, raw, URI.create(server.apiAddress()));
    }
    GOALS.print(goals, out);
  }

  private void printParameters(Figures out) {
    out.put("machine.cores", Runtime.getRuntime().availableProcessors());
    out.put("machine.java", System.getProperty("java.version"));
    out.put("parameters.duration_s", parameters.duration().toSeconds());
    out.put("parameters.warmup_s", parameters.warmup().toSeconds());
    out.put("parameters.concurrency", parameters.concurrency());
    out.put("parameters.batch", parameters.batch());
    out.put("parameters.item_bytes", parameters.itemBytes());
    out.put("parameters.records", parameters.records());
    out.put("parameters.consistency", "LOCAL_QUORUM");
    out.put(
        "parameters.phases",
        String.join(",", KvParameters.PHASES.stream().filter(parameters::runs).toList()));
  }

  /** Figures printed as they come; those that have a goal also kept for the verdicts. */
  private static Figures tee(Figures out, Map<String, Double> goals) {
    return out.keeping(GOALS.figures(), goals);
  }

  private static String seconds(Duration d) {
    return d.toSeconds() + " s";
  }

  /** Creates {@code table} in the benchmark's keyspace; a raw client of it. */
  private static RawItems itemTable(CqlSession session, CassandraSettings settings, String table) {
    new CqlItemTables(session, settings.schemaTimeout())
        .create(
            new KvNamespace(
                "raw",
                KEYSPACE,
                table,
                ClusteringOrder.ASC,
                new Consistency(Consistency.Scope.LOCAL, Consistency.Target.READ_YOUR_WRITES),
                Optional.empty()))
        .toCompletableFuture()
        .join();
    return new RawItems(session, KEYSPACE + "." + table, DefaultConsistencyLevel.LOCAL_QUORUM);
  }
}
