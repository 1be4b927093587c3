package io.varve.server;

import com.datastax.oss.driver.api.core.CqlSession;
import com.linecorp.armeria.server.Server;
import com.linecorp.armeria.server.ServerBuilder;
import com.linecorp.armeria.server.ServerListener;
import com.linecorp.armeria.server.docs.DocService;
import com.linecorp.armeria.server.prometheus.PrometheusExpositionService;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import io.varve.cassandra.kv.CqlChunkLog;
import io.varve.cassandra.kv.CqlChunkSweep;
import io.varve.cassandra.metadata.CqlMetadataStore;
import io.varve.cassandra.session.ClusterSessions;
import io.varve.cassandra.session.Sessions;
import io.varve.core.index.IndexStore;
import io.varve.core.kv.ItemTables;
import io.varve.core.read.PageTokens;
import io.varve.core.store.EventStore;
import io.varve.core.store.KeyspaceClusters;
import io.varve.core.store.SliceTables;
import io.varve.opensearch.OpenSearchClients;
import io.varve.opensearch.OpenSearchIndexStore;
import io.varve.opensearch.OpenSearchSettings;
import io.varve.server.admission.AdmissionControl;
import io.varve.server.admission.DecodeQueue;
import io.varve.server.auth.Permission;
import io.varve.server.buffer.WriteBuffers;
import io.varve.server.config.NamespaceConfigMapper;
import io.varve.server.config.ServerCertificate;
import io.varve.server.config.ServerSettings;
import io.varve.server.controlplane.CompactionSwitcher;
import io.varve.server.controlplane.ControlPlaneHandler;
import io.varve.server.controlplane.HistogramSurveyor;
import io.varve.server.controlplane.NamespaceDeletion;
import io.varve.server.controlplane.NamespaceEntry;
import io.varve.server.controlplane.NamespaceRegistry;
import io.varve.server.controlplane.SliceMaintainer;
import io.varve.server.controlplane.SliceRepartitions;
import io.varve.server.dataplane.DataPlaneHandler;
import io.varve.server.dataplane.ImmutableRangeCache;
import io.varve.server.dataplane.SearchHandler;
import io.varve.server.handshake.Handshakes;
import io.varve.server.health.BackgroundWorkers;
import io.varve.server.health.HealthReport;
import io.varve.server.index.Backfill;
import io.varve.server.index.IndexMaintainer;
import io.varve.server.index.Indexer;
import io.varve.server.kv.ChunkSweeper;
import io.varve.server.kv.KeyValueHandler;
import io.varve.server.metrics.CassandraNodes;
import io.varve.server.metrics.CassandraRequestMetrics;
import io.varve.server.metrics.JvmMetrics;
import io.varve.server.metrics.LatencyBuckets;
import io.varve.server.metrics.LimitGauges;
import io.varve.server.metrics.SloCounters;
import io.varve.server.transport.TokenAuthentication;
import io.varve.server.transport.Transports;
import java.net.InetSocketAddress;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A running Varve server: gRPC and HTTP/JSON APIs, the browsable API page ({@code /docs}), health
 * ({@code /health}) and Prometheus metrics ({@code /metrics}) on one port, over a Cassandra session
 * per cluster (the default one, and those of {@code cassandra.clusters}). Start with {@link
 * #start}; {@link #close} stops it gracefully.
 */
public final class VarveServer implements AutoCloseable {

  private static final Logger log = LoggerFactory.getLogger(VarveServer.class);

  /** How long a graceful stop waits for the fire-and-forget queues to be written. */
  public static final Duration DRAIN_TIMEOUT = Duration.ofSeconds(30);

  private final Server server;
  private final ClusterSessions sessions;
  private final SliceMaintainer maintainer;
  private final Optional<IndexServices> index;
  private final WriteBuffers buffers;
  private final ServerSettings.Shutdown shutdown;

  /** The index store side, when configured. */
  private record IndexServices(
      OpenSearchIndexStore store, Indexer indexer, IndexMaintainer maintainer) {}

  private VarveServer(
      Server server,
      ClusterSessions sessions,
      SliceMaintainer maintainer,
      Optional<IndexServices> index,
      WriteBuffers buffers,
      ServerSettings.Shutdown shutdown) {
    this.buffers = buffers;
    this.shutdown = shutdown;
    this.server = server;
    this.sessions = sessions;
    this.maintainer = maintainer;
    this.index = index;
  }

  /**
   * Logs when the API's certificate expires, as a warning within {@link
   * ServerCertificate#RENEWAL_WARNING}: the server reads its files only at start, so a renewed
   * certificate needs a restart. (Armeria's gauge {@code
   * armeria_server_tls_certificate_validity_days} gives the same for alerts.)
   */
  private static void logExpiry(ServerCertificate certificate) {
    Duration remaining = certificate.remaining(Instant.now());
    if (remaining.compareTo(ServerCertificate.RENEWAL_WARNING) < 0) {
      log.warn(
          "the API's TLS certificate of {} expires at {}, in {} h: renew it and restart",
          certificate.subject(),
          certificate.notAfter(),
          remaining.toHours());
    } else {
      log.info(
          "the API's TLS certificate of {} is valid until {}",
          certificate.subject(),
          certificate.notAfter());
    }
  }

  /** Connects to Cassandra, prepares the metadata keyspace and starts serving. */
  public static VarveServer start(ServerSettings settings) {
    return start(settings, Clock.systemUTC());
  }

  /**
   * As {@link #start(ServerSettings)}, with the clock that decides write windows, slice creation
   * and retention (tests move it forward to see slices close and drop).
   */
  public static VarveServer start(ServerSettings settings, Clock clock) {
    log.info("effective configuration: {}", settings.describe());
    // before anything connects: an expired certificate or another's key stops the start, named
    settings
        .tls()
        .map(tls -> ServerCertificate.check(tls, Instant.now()))
        .ifPresent(VarveServer::logExpiry);
    PrometheusMeterRegistry metrics = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    LatencyBuckets.apply(metrics);
    CqlSession session =
        Sessions.open(settings.cassandra(), List.of(new CassandraRequestMetrics(metrics)))
            .toCompletableFuture()
            .join();
    // the other clusters are opened in the background: one that is down degrades its namespaces
    // only
    ClusterSessions sessions =
        new ClusterSessions(
            session,
            settings.clusters(),
            cluster -> List.of(new CassandraRequestMetrics(metrics, cluster)),
            Clock.systemUTC());
    JvmMetrics jvm = new JvmMetrics(metrics);
    CassandraNodes.register(metrics, sessions);
    try {
      Stores stores = Stores.of(settings, sessions, new KeyspaceClusters());
      CqlMetadataStore store =
          CqlMetadataStore.open(
              session,
              settings.cassandra().metadataKeyspace(),
              stores.defaultTables(),
              settings.cassandra().schemaTimeout());
      SliceTables tables = stores.tables();
      NamespaceConfigMapper mapper =
          new NamespaceConfigMapper(
              settings.cassandra().metadataKeyspace(),
              settings.limits().futureLimit(),
              sessions.names().stream().collect(java.util.stream.Collectors.toSet()));
      // staleness is judged on the wall clock, whatever clock decides slices and retention
      BackgroundWorkers workers = new BackgroundWorkers(metrics, Clock.systemUTC());
      Duration staleAfter = BackgroundWorkers.staleAfter(settings.sliceMaintenanceInterval());
      NamespaceRegistry registry =
          new NamespaceRegistry(
              store,
              mapper,
              settings.readFanout(),
              settings.maxReadFanout(),
              metrics,
              clock,
              stores.keyspaces());
      Optional<IndexServices> index =
          indexServices(settings, registry, metrics, clock, workers, staleAfter);
      EventStore events = stores.events();
      LimitGauges.register(metrics, stores.writes());
      LimitGauges.register(metrics, stores.reads());
      PageTokens tokens = new PageTokens(store.pageTokenKey().toCompletableFuture().join());
      CqlChunkLog chunkLog =
          CqlChunkLog.open(
              session,
              settings.cassandra().metadataKeyspace(),
              settings.cassandra().schemaTimeout());
      KeyValueHandler kv =
          new KeyValueHandler(
              registry,
              stores.items(chunkLog),
              tokens,
              settings.kv(),
              clock,
              metrics,
              settings.kvChunks());
      ItemTables itemTables = stores.itemTables();
      SloCounters slo =
          new SloCounters(
              metrics, namespace -> registry.served(namespace).flatMap(NamespaceEntry::slos));
      NamespaceDeletion deletion =
          new NamespaceDeletion(
              store,
              tables,
              itemTables,
              index.<IndexStore>map(IndexServices::store),
              registry,
              clock,
              namespace -> {
                kv.forget(namespace);
                slo.forget(namespace);
                index.ifPresent(i -> i.indexer().forget(namespace));
              });
      SliceMaintainer maintainer =
          new SliceMaintainer(
              registry,
              store,
              tables,
              clock,
              settings.limits().futureLimit(),
              deletion,
              new CompactionSwitcher(store, tables, clock, settings.compaction(), metrics),
              workers.register("slice-maintainer", true, staleAfter));
      HistogramSurveyor histograms =
          new HistogramSurveyor(
              registry,
              store,
              tables,
              mapper,
              clock,
              settings.histogram(),
              settings.compaction(),
              workers.register("slice-histogram", false, staleAfter),
              metrics);
      ControlPlaneHandler control =
          new ControlPlaneHandler(
              store,
              tables,
              itemTables,
              registry,
              maintainer,
              deletion,
              mapper,
              clock,
              INITIAL_SLICE_WAIT,
              settings.histogram().target(),
              new SliceRepartitions(
                  store,
                  tables,
                  registry,
                  clock,
                  settings.readCache().safetyMargin(),
                  settings.oldTableGrace(),
                  settings.histogram().target()));
      Optional<Indexer> indexer = index.map(IndexServices::indexer);
      WriteBuffers buffers =
          new WriteBuffers(
              events,
              stores::requireReachable,
              registry::known,
              indexer,
              metrics,
              settings.admission().bufferedWriteBytes(),
              settings.admission().bufferedWriteRetry(),
              workers.register("write-buffer", true, staleAfter));
      DataPlaneHandler data =
          new DataPlaneHandler(
              registry,
              events,
              buffers,
              tokens,
              settings.limits(),
              clock,
              indexer,
              new ImmutableRangeCache(settings.readCache(), metrics),
              metrics);
      SearchHandler search =
          new SearchHandler(
              registry,
              index.map(IndexServices::store),
              events,
              tokens,
              settings.search(),
              clock,
              metrics);
      Backfill backfill = new Backfill(registry, events, indexer, clock);
      Handshakes handshakes =
          new Handshakes(
              registry,
              settings.kv(),
              settings.kvChunks(),
              settings.limits(),
              settings.sliceMaintenanceInterval());
      ChunkSweeper sweeper =
          new ChunkSweeper(
              new CqlChunkSweep(
                  stores::sweepSession, chunkLog, settings.kvChunks(), Clock.systemUTC()),
              workers.register(
                  "chunk-sweeper",
                  false,
                  BackgroundWorkers.staleAfter(settings.kvChunks().sweepInterval())),
              metrics);

      ServerBuilder sb = listening(settings);
      // writes wait first for a decoding thread, then (durable ones) for Cassandra: admission sees
      // the longer wait
      DecodeQueue decoding = DecodeQueue.perCore();
      metrics.gauge("varve.decode.waiting", decoding, DecodeQueue::waiting);
      AdmissionControl admission =
          new AdmissionControl(
              settings.admission(),
              metrics,
              decoding::oldestWait,
              () -> Duration.ofNanos(stores.writes().oldestWaitNanos()),
              buffers::roomBytes);
      Transports.register(
          sb, control, backfill, data, search, kv, handshakes, slo, settings, admission, decoding);
      sb.serverListener(ServerListener.builder().whenStopped(s -> decoding.close()).build());
      sb.serverListener(ServerListener.builder().whenStopped(s -> jvm.close()).build());
      sb.serverListener(ServerListener.builder().whenStopping(s -> sweeper.close()).build());
      sb.serverListener(ServerListener.builder().whenStopping(s -> histograms.close()).build());
      servePages(sb, metrics, workers, registry, sessions, settings);
      Server server = sb.build();
      server.start().join();
      maintainer.start(settings.sliceMaintenanceInterval());
      sweeper.start(settings.kvChunks().sweepInterval());
      histograms.start(settings.sliceMaintenanceInterval());
      index.ifPresent(i -> i.maintainer().start(settings.sliceMaintenanceInterval()));
      log.info(
          "Varve serving on {}://{}:{} (API page /docs)",
          settings.tls().isPresent() ? "https" : "http",
          settings.host(),
          server.activeLocalPort());
      return new VarveServer(server, sessions, maintainer, index, buffers, settings.shutdown());
    } catch (RuntimeException e) {
      jvm.close();
      sessions.close();
      session.close();
      throw e;
    }
  }

  /**
   * How long CreateNamespace waits for the slices around now to be created before it answers (they
   * are created in the background after that, and writes to them wait for them).
   */
  static final Duration INITIAL_SLICE_WAIT = Duration.ofSeconds(20);

  /** The index store and its workers, when {@code opensearch.urls} names a cluster. */
  private static Optional<IndexServices> indexServices(
      ServerSettings settings,
      NamespaceRegistry registry,
      PrometheusMeterRegistry metrics,
      Clock clock,
      BackgroundWorkers workers,
      Duration staleAfter) {
    if (!settings.opensearch().enabled()) {
      return Optional.empty();
    }
    OpenSearchSettings os = settings.opensearch();
    OpenSearchIndexStore indexStore = new OpenSearchIndexStore(OpenSearchClients.open(os));
    return Optional.of(
        new IndexServices(
            indexStore,
            new Indexer(
                indexStore,
                metrics,
                clock,
                Indexer.Limits.of(os),
                workers.register("indexer", false, staleAfter)),
            new IndexMaintainer(
                registry,
                indexStore,
                clock,
                workers.register("index-maintainer", false, staleAfter))));
  }

  /** The server's listening address (TLS or not), timeouts and shutdown, before any service. */
  private static ServerBuilder listening(ServerSettings settings) {
    ServerBuilder sb =
        Server.builder()
            .requestTimeout(Transports.REQUEST_TIMEOUT)
            .gracefulShutdownTimeout(
                settings.shutdown().quietPeriod(), settings.shutdown().timeout())
            // clients that hedge or keep deadlines cancel calls (RST_STREAM) as a matter of course
            .http2MaxResetFramesPerWindow(Transports.MAX_RESETS_PER_MINUTE, 60);
    InetSocketAddress address = new InetSocketAddress(settings.host(), settings.port());
    if (settings.tls().isPresent()) {
      sb.https(address)
          .tls(
              settings.tls().get().certificateChain().toFile(),
              settings.tls().get().privateKey().toFile());
    } else {
      sb.http(address);
    }
    return sb;
  }

  /**
   * {@code /metrics}, {@code /health} and {@code /docs}, the first and last behind their
   * permission.
   */
  private static void servePages(
      ServerBuilder sb,
      PrometheusMeterRegistry metrics,
      BackgroundWorkers workers,
      NamespaceRegistry registry,
      ClusterSessions sessions,
      ServerSettings settings) {
    TokenAuthentication pages = new TokenAuthentication(settings.auth());
    sb.meterRegistry(metrics)
        .service(
            "/metrics",
            PrometheusExpositionService.of(metrics.getPrometheusRegistry())
                .decorate(pages.page(Permission.METRICS)))
        .service("/health", HealthReport.service(workers, registry::unserved, sessions::health))
        .serviceUnder("/docs", DocService.builder().build().decorate(pages.page(Permission.DOCS)));
  }

  /** The port actually bound (useful when configured as 0). */
  public int port() {
    return server.activeLocalPort();
  }

  /** Blocks until the server stops. */
  public void awaitTermination() {
    server.whenClosed().join();
  }

  /** The index maintainer, when an index store is configured (tests run its cycle directly). */
  public Optional<IndexMaintainer> indexMaintainer() {
    return index.map(IndexServices::maintainer);
  }

  /** Events waiting to be indexed; 0 without an index store. */
  public int indexBacklog() {
    return index.map(i -> i.indexer().backlog()).orElse(0);
  }

  @Override
  public void close() {
    maintainer.close();
    stopServing();
    // after the last request, before the index queue and the session they write to
    buffers.close(DRAIN_TIMEOUT);
    index.ifPresent(
        i -> {
          i.maintainer().close();
          i.indexer().close();
          try {
            i.store().close();
          } catch (java.io.IOException e) {
            log.debug("closing the index store client", e);
          }
        });
    sessions.close();
    sessions.session(ClusterSessions.DEFAULT).close();
  }

  /**
   * Stops the API. Armeria lets the quiet period pass and the requests in flight end, closes the
   * port and every connection, and then waits for its acceptor thread to end, which netty lets idle
   * for a fixed 2 s first. That last wait is not waited out: once the port and the connections are
   * closed nothing more is served, and the thread ends on its own (in {@code varve serve}, the
   * process exits first). A stop of the whole {@code server.shutdown.timeout} and more is waited
   * for to its end.
   */
  private void stopServing() {
    CompletableFuture<Void> stopped = server.stop();
    long deadline = System.nanoTime() + shutdown.timeout().plusSeconds(5).toNanos();
    while (!stopped.isDone() && !(server.activePorts().isEmpty() && server.numConnections() == 0)) {
      if (System.nanoTime() > deadline) {
        stopped.join();
        return;
      }
      try {
        Thread.sleep(5); // between looks at the port and the connections
      } catch (InterruptedException e) {
        // the stop is still waited for to its end (the buffers and sessions close after it), the
        // interrupt kept for the caller
        Thread.currentThread().interrupt();
        stopped.join();
        return;
      }
    }
  }
}
