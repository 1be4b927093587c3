package io.varve.perf.search;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.cassandra.session.Sessions;
import io.varve.client.ControlPlaneClient;
import io.varve.client.TimeSeriesClient;
import io.varve.client.VarveClient;
import io.varve.local.server.ServerMetrics;
import io.varve.perf.environment.Environment;
import io.varve.perf.environment.LocalServer;
import io.varve.perf.environment.VarveServer;
import io.varve.perf.measure.CpuMeter;
import io.varve.perf.measure.Figures;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.net.URI;
import java.time.Duration;
import java.util.List;

/**
 * {@code varve perf search}: the search and aggregate APIs, in one run, against the server run as
 * its own process (as {@code varve up} runs it) with the local Cassandra as primary store and the
 * local OpenSearch as index store:
 *
 * <ol>
 *   <li>{@link WriteAndIndexPhase}: the primary write rate and, side by side, the indexing
 *       throughput;
 *   <li>{@link SearchLatencyPhase}: SearchEventRecords latency of four queries, each answer
 *       checked;
 *   <li>{@link AggregatePhase}: AggregateEventRecords latency of a distinct over 24 h, checked
 *       likewise;
 *   <li>{@link IndexLagPhase}: the time from a write's acknowledgement until a search finds it.
 * </ol>
 *
 * Starts what is not running (the local OpenSearch and Cassandra) and a server on a free port; the
 * {@link Environment} stops exactly those at the end, also on failure or Ctrl-C, and drops the
 * benchmark's data.
 */
final class SearchBenchmark {

  static final int SERIES = 1000;
  static final int PAGE_SIZE = 100;
  static final long HOUR = 3_600_000L;
  static final long DAY = 24 * HOUR;

  /**
   * The server's {@code opensearch.queueBytes}: room in its 1 GiB heap for the index queue to hold
   * the whole load (200,000 events are about 140 MiB by its estimate) should indexing fall behind,
   * so that no event is dropped; {@code index_dropped_events_total} is printed.
   */
  static final int QUEUE_BYTES = 384 << 20;

  private final Environment environment;
  private final SearchParameters parameters;

  SearchBenchmark(Environment environment, SearchParameters parameters) {
    this.environment = environment;
    this.parameters = parameters;
  }

  /**
   * Runs the phases against the Cassandra at {@code cassandra} (host:port) and the OpenSearch at
   * {@code opensearch} (URL), or the local ones, started if need be, where null.
   */
  void run(Figures out, String cassandra, String opensearch) throws Exception {
    printParameters(out);
    // OpenSearch first: it fails at once when no JDK 21+ is found, before Cassandra is launched.
    LocalServer localOpenSearch = opensearch == null ? environment.openSearch() : null;
    URI openSearchUrl =
        URI.create(
            localOpenSearch != null
                ? localOpenSearch.address()
                : opensearch.endsWith("/")
                    ? opensearch.substring(0, opensearch.length() - 1)
                    : opensearch);
    LocalServer localCassandra = cassandra == null ? environment.cassandra() : null;
    InetSocketAddress cql =
        ServerSettings.contactPoint(
            "--cassandra", localCassandra != null ? localCassandra.address() : cassandra);
    environment.awaitReady();

    CqlSession session =
        environment.closeAtEnd(
            "close the CQL session",
            Sessions.open(
                    CassandraSettings.local(cql.getPort())
                        .withContactPoints(List.of(cql))
                        .withMetadataKeyspace(SearchNamespace.METADATA_KEYSPACE))
                .toCompletableFuture()
                .join());
    SearchNamespace.drop(session, openSearchUrl);
    environment.atEnd(
        "drop the benchmark's keyspaces and indices",
        () -> SearchNamespace.drop(session, openSearchUrl));
    VarveServer server =
        VarveServer.start(
            environment,
            "perf-search-server",
            "cassandra:\n"
                + "  contactPoints: [\""
                + cql.getHostString()
                + ":"
                + cql.getPort()
                + "\"]\n"
                + "  metadataKeyspace: "
                + SearchNamespace.METADATA_KEYSPACE
                + "\n"
                + "opensearch:\n"
                + "  urls: [\""
                + openSearchUrl
                + "\"]\n"
                + "  queueCapacity: "
                + parameters.queueCapacity()
                + "\n"
                + "  queueBytes: "
                + QUEUE_BYTES
                + "\n");
    VarveClient client = server.client(environment, Duration.ofMinutes(2));
    ControlPlaneClient control = client.controlPlane();
    TimeSeriesClient api = client.timeSeries();

    long now = System.currentTimeMillis();
    long dataEnd = now - now % 1000;
    long dataFrom = dataEnd - DAY;
    SearchNamespace.create(control, parameters.documentMode(), dataFrom);

    CpuMeter cpu =
        new CpuMeter().add("client", ProcessHandle.current().pid()).add("server", server.pid());
    if (localCassandra != null) {
      cpu.add("cassandra", localCassandra.pid());
    }
    if (localOpenSearch != null) {
      cpu.add("opensearch", localOpenSearch.pid());
    }

    environment.progress("generating " + parameters.events() + " events");
    SearchEvents data =
        new SearchEvents(parameters.events(), SERIES, dataFrom, dataEnd - 60_000, 42);
    IndexMetrics metrics = new IndexMetrics(server.apiAddress());
    new WriteAndIndexPhase(environment, parameters, api, metrics)
        .run(out, data, dataFrom, dataEnd, cpu);
    new SearchLatencyPhase(environment, parameters, api).run(out, data, dataFrom, dataEnd);
    new AggregatePhase(environment, parameters, api).run(out, data, dataFrom, dataEnd);
    new IndexLagPhase(environment, parameters, api).run(out, data);
    ServerMetrics last = metrics.read();
    out.put("index_dropped_events_total", (long) last.sum("varve_index_dropped_events_total"));
    out.put("index_failed_events_total", (long) last.sum("varve_index_failed_events_total"));
    out.put("index_skipped_events_total", (long) last.sum("varve_index_skipped_events_total"));
  }

  private void printParameters(Figures out) {
    out.put("machine.cores", Runtime.getRuntime().availableProcessors());
    out.put(
        "machine.os",
        System.getProperty("os.name")
            + " "
            + System.getProperty("os.version")
            + " "
            + System.getProperty("os.arch"));
    out.put(
        "machine.java",
        System.getProperty("java.version") + " (" + System.getProperty("java.vendor") + ")");
    out.put("params.events", parameters.events());
    out.put("params.writers", parameters.writers());
    out.put("params.batch", parameters.batch());
    out.put("params.series", SERIES);
    out.put("params.device_types", SearchEvents.DEVICE_TYPES.size());
    out.put("params.countries", SearchEvents.COUNTRIES.size());
    out.put("params.event_time_window", "24h");
    out.put("params.document_mode", parameters.documentMode());
    out.put("params.refresh_interval", "1s");
    out.put("params.queue_capacity", parameters.queueCapacity());
    out.put("params.queue_bytes", QUEUE_BYTES);
    out.put("params.requests", parameters.requests());
    out.put("params.warmup", parameters.warmup());
    out.put("params.clients", parameters.clients());
    out.put("params.page_size", PAGE_SIZE);
    out.put("params.probes", parameters.probes());
    out.put("params.probe_interval_ms", parameters.probeIntervalMs());
    out.put("params.probe_poll_ms", IndexLagPhase.POLL_MILLIS);
    out.put("params.background_events_per_s", parameters.backgroundRate());
  }
}
