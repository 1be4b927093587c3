package io.varve.server.controlplane;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.FanoutController;
import io.varve.core.store.KeyspaceClusters;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.NamespaceRecord;
import io.varve.server.config.NamespaceConfigMapper;
import io.varve.server.config.NamespaceService;
import java.time.Clock;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namespaces this server serves, cached from the metadata store so that the data plane never
 * reads metadata on a request's path. Refreshed by the {@link SliceMaintainer} on every cycle and
 * updated at once by this server's own control-plane changes. Thread-safe.
 *
 * <p>A stored configuration is validated as a new one would be. One that fails (stored by an older
 * version under looser bounds) never fails a load or a refresh: it becomes an unserved entry
 * ({@link NamespaceEntry#served()}), logged once per version, counted in the gauge {@code
 * varve_namespaces_unserved}, refused by {@link #get} and {@link #load} and shown by {@link
 * #inspect} for the control plane to report and fix.
 */
public final class NamespaceRegistry {

  private static final Logger log = LoggerFactory.getLogger(NamespaceRegistry.class);

  private final MetadataStore store;
  private final NamespaceConfigMapper mapper;
  private final int fanout;
  private final int maxFanout;
  private final ConcurrentMap<String, NamespaceEntry> entries = new ConcurrentHashMap<>();
  private final ConcurrentMap<String, Long> reported = new ConcurrentHashMap<>();
  private final Clock clock;
  private final KeyspaceClusters keyspaces;

  /**
   * The cluster of each namespace (served or being deleted) by keyspace, then namespace: what
   * {@link #conflict} looks in, without going over every namespace.
   */
  private final ConcurrentMap<String, ConcurrentMap<String, String>> clustersByKeyspace =
      new ConcurrentHashMap<>();

  /** When each namespace's slices were last read again because none held now (nanoTime). */
  private final ConcurrentMap<String, Long> sliceReloads = new ConcurrentHashMap<>();

  /** The least time between two such reads of one namespace's slices. */
  static final Duration SLICE_RELOAD_INTERVAL = Duration.ofSeconds(1);

  /**
   * @param clock the clock that decides which slice holds "now" (the one that decides slice
   *     creation)
   */
  public NamespaceRegistry(
      MetadataStore store,
      NamespaceConfigMapper mapper,
      int fanout,
      int maxFanout,
      MeterRegistry metrics,
      Clock clock) {
    this(store, mapper, fanout, maxFanout, metrics, clock, new KeyspaceClusters());
  }

  /**
   * @param keyspaces told the cluster of each namespace's keyspace as it is loaded, when the server
   *     names clusters ({@link NamespaceConfigMapper#routesByCluster()})
   */
  public NamespaceRegistry(
      MetadataStore store,
      NamespaceConfigMapper mapper,
      int fanout,
      int maxFanout,
      MeterRegistry metrics,
      Clock clock,
      KeyspaceClusters keyspaces) {
    this.keyspaces = keyspaces;
    this.store = store;
    this.clock = clock;
    this.mapper = mapper;
    this.fanout = fanout;
    this.maxFanout = maxFanout;
    Gauge.builder(
            "varve.namespaces.unserved",
            entries,
            e -> e.values().stream().filter(n -> n.invalid().isPresent()).count())
        .description(
            "Namespaces whose stored configuration is outside the bounds: not served, not maintained")
        .register(metrics);
  }

  /**
   * The served TimeSeries namespace, from the cache or else the store; NOT_FOUND,
   * FAILED_PRECONDITION or (a KeyValue namespace) INVALID_ARGUMENT otherwise.
   */
  public CompletionStage<NamespaceEntry> get(String namespace) {
    return get(namespace, NamespaceService.TIME_SERIES);
  }

  /** The served namespace of {@code service}, as {@link #get(String)}. */
  public CompletionStage<NamespaceEntry> get(String namespace, NamespaceService service) {
    return any(namespace).thenApply(e -> e.requireService(service));
  }

  /** The served namespace, whichever its service; NOT_FOUND or FAILED_PRECONDITION otherwise. */
  public CompletionStage<NamespaceEntry> getAny(String namespace) {
    return any(namespace).thenApply(NamespaceEntry::requireServed);
  }

  private CompletionStage<NamespaceEntry> any(String namespace) {
    NamespaceEntry cached = entries.get(namespace);
    if (cached == null) {
      return inspect(namespace);
    }
    return holdsNow(cached) ? CompletableFuture.completedFuture(cached) : reloadSlices(cached);
  }

  /**
   * Whether a cached entry can be served as is: a TimeSeries namespace has a slice holding now
   * (every server's maintainer creates them ahead of time). One that has none was cached before its
   * slices existed, for one by a refresh that read the record while another server was creating the
   * namespace: its writes would be refused "no slice yet" and its reads find nothing until the next
   * refresh.
   */
  private boolean holdsNow(NamespaceEntry entry) {
    if (!entry.served() || entry.service() != NamespaceService.TIME_SERIES) {
      return true;
    }
    long now = clock.millis();
    for (TimeSlice slice : entry.slices()) {
      if (slice.contains(now)) {
        return true;
      }
    }
    return false;
  }

  /**
   * The entry with its slices read again from the store, at most once per {@link
   * #SLICE_RELOAD_INTERVAL} for a namespace (a namespace whose slices cannot be created must not
   * turn every request into a read of the store); the entry as cached otherwise.
   */
  private CompletionStage<NamespaceEntry> reloadSlices(NamespaceEntry cached) {
    String namespace = cached.record().namespace();
    long now = System.nanoTime();
    Long last = sliceReloads.get(namespace);
    if (last != null && now - last < SLICE_RELOAD_INTERVAL.toNanos()) {
      return CompletableFuture.completedFuture(cached);
    }
    sliceReloads.put(namespace, now);
    return store
        .slices(namespace)
        .thenApply(
            slices -> {
              NamespaceEntry fresh = cached.withSlices(slices);
              // an update or a deletion meanwhile wins
              return entries.replace(namespace, cached, fresh) ? fresh : cached;
            });
  }

  /**
   * The served TimeSeries namespace as this server knows it now (its own updates at once, others'
   * from the next refresh), without reading the store; empty when not known or not served.
   */
  public Optional<NamespaceEntry> known(String namespace) {
    return Optional.ofNullable(entries.get(namespace))
        .filter(e -> e.served() && e.service() == NamespaceService.TIME_SERIES);
  }

  /**
   * The served namespace of either service as this server knows it now, without reading the store;
   * empty when not known or not served.
   */
  public Optional<NamespaceEntry> served(String namespace) {
    return Optional.ofNullable(entries.get(namespace)).filter(NamespaceEntry::served);
  }

  /** Reads the served TimeSeries namespace and its slices from the store and caches them. */
  public CompletionStage<NamespaceEntry> load(String namespace) {
    return inspect(namespace).thenApply(e -> e.requireService(NamespaceService.TIME_SERIES));
  }

  /** As {@link #load}, but an unserved namespace too (the control plane reports and updates it). */
  public CompletionStage<NamespaceEntry> inspect(String namespace) {
    return store
        .get(namespace)
        .thenCompose(
            record -> {
              if (record.isEmpty()) {
                throw VarveException.notFound("namespace '" + namespace + "' does not exist");
              }
              return store
                  .slices(namespace)
                  .thenApply(slices -> put(entry(record.get()).withSlices(slices)));
            });
  }

  /**
   * Reloads every namespace from the store, unserved ones included, without their slices: nothing
   * uses them, and an older version may have recorded many.
   */
  public CompletionStage<Collection<NamespaceEntry>> refresh() {
    return store
        .list()
        .thenCompose(
            records -> {
              List<CompletableFuture<NamespaceEntry>> loads =
                  records.stream()
                      .map(
                          r -> {
                            NamespaceEntry fresh = entry(r);
                            CompletionStage<List<TimeSlice>> slices =
                                fresh.served()
                                    ? store.slices(r.namespace())
                                    : CompletableFuture.completedFuture(List.of());
                            return slices
                                .thenApply(s -> put(fresh.withSlices(s)))
                                .toCompletableFuture();
                          })
                      .toList();
              List<String> stored = records.stream().map(NamespaceRecord::namespace).toList();
              java.util.Set<String> kept = new java.util.HashSet<>(stored);
              entries.keySet().stream()
                  .filter(n -> !kept.contains(n))
                  .toList()
                  .forEach(this::remove);
              sliceReloads.keySet().retainAll(stored);
              return CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new))
                  .thenApply(v -> loads.stream().map(CompletableFuture::join).toList());
            });
  }

  /**
   * A fresh entry for a stored record (no slices yet), keeping any learned fan-out; unserved when
   * the stored configuration does not validate. Never throws for a stored configuration.
   */
  public NamespaceEntry entry(NamespaceRecord record) {
    NamespaceEntry previous = entries.get(record.namespace());
    FanoutController controller =
        previous != null ? previous.fanout() : new FanoutController(fanout, maxFanout);
    List<PersistenceConfiguration> stored = List.of();
    String service = "";
    try {
      io.varve.api.timeseries.v1.CreateNamespaceRequest document =
          NamespaceDocuments.read(record.configJson());
      stored = document.getPersistenceConfigurationList();
      service = document.getService();
      NamespaceConfigMapper.Mapped mapped = mapper.map(record.namespace(), service, stored);
      conflict(record.namespace(), mapped.keyspace(), NamespaceEntry.cluster(mapped.normalized()))
          .ifPresent(
              other -> {
                throw VarveException.failedPrecondition(
                    "its keyspace '"
                        + mapped.keyspace()
                        + "' lives on cluster '"
                        + other.cluster()
                        + "', where namespace "
                        + other.record().namespace()
                        + " has it (a keyspace lives on one cluster)");
              });
      return new NamespaceEntry(
          record,
          mapped.settings(),
          mapped.normalized(),
          mapped.index(),
          List.of(),
          controller,
          Optional.empty(),
          mapped.service(),
          mapped.keyValue());
    } catch (RuntimeException e) {
      // whatever the stored document holds, it must not stop the server or its other namespaces
      String reason = e.getMessage() == null ? e.toString() : e.getMessage();
      Long logged = reported.put(record.namespace(), record.version());
      if (logged == null || logged != record.version()) {
        log.warn(
            "namespace {} (version {}) is not served and not maintained: its stored configuration is outside"
                + " this server's bounds: {}; UpdateNamespace with valid values serves it again",
            record.namespace(),
            record.version(),
            reason);
      }
      return NamespaceEntry.unserved(
          record,
          stored,
          reason,
          controller,
          service.equals(NamespaceService.KEY_VALUE.name())
              ? NamespaceService.KEY_VALUE
              : NamespaceService.TIME_SERIES);
    }
  }

  /** The namespaces cached now, unserved ones included. */
  public Collection<NamespaceEntry> cached() {
    return List.copyOf(entries.values());
  }

  /** The names of the cached namespaces that are not served, with the reason. */
  public Map<String, String> unserved() {
    Map<String, String> found = new TreeMap<>();
    entries.values().stream()
        .filter(e -> e.invalid().isPresent())
        .forEach(e -> found.put(e.record().namespace(), e.invalid().orElseThrow()));
    return found;
  }

  /** Forgets a namespace this server deleted, without waiting for the next refresh. */
  public void remove(String namespace) {
    NamespaceEntry removed = entries.remove(namespace);
    sliceReloads.remove(namespace);
    if (removed != null) {
      unindex(removed);
    }
  }

  private void unindex(NamespaceEntry entry) {
    ConcurrentMap<String, String> namespaces = clustersByKeyspace.get(entry.keyspace());
    if (namespaces != null) {
      namespaces.remove(entry.record().namespace());
    }
  }

  public NamespaceEntry put(NamespaceEntry entry) {
    NamespaceEntry previous = entries.get(entry.record().namespace());
    if (previous != null && previous.record().version() > entry.record().version()) {
      return previous;
    }
    entries.put(entry.record().namespace(), entry);
    if (previous != null) {
      unindex(previous);
    }
    if (entry.invalid().isEmpty()) {
      clustersByKeyspace
          .computeIfAbsent(entry.keyspace(), k -> new ConcurrentHashMap<>())
          .put(entry.record().namespace(), entry.cluster());
    }
    if (mapper.routesByCluster()
        && conflict(entry.record().namespace(), entry.keyspace(), entry.cluster()).isEmpty()) {
      // an unserved namespace too: its deletion drops its tables on its own cluster, or is refused
      // while this server does not name that cluster
      keyspaces.assign(entry.keyspace(), entry.cluster());
    }
    return entry;
  }

  /**
   * Routes {@code keyspace} to {@code cluster} for a namespace about to be created in it, when the
   * server names clusters; refuses, naming {@code field}, a keyspace another namespace has on
   * another cluster.
   */
  public void claim(String namespace, String keyspace, String cluster, String field) {
    if (!mapper.routesByCluster()) {
      return;
    }
    conflict(namespace, keyspace, cluster)
        .ifPresent(
            other -> {
              throw new InvalidFieldException(
                  field,
                  cluster,
                  "'"
                      + other.cluster()
                      + "', the cluster of keyspace '"
                      + keyspace
                      + "' where namespace "
                      + other.record().namespace()
                      + " lives (a keyspace lives on one cluster; name another"
                      + " physicalStorage.dataset)");
            });
    keyspaces.assign(keyspace, cluster);
  }

  /**
   * Another namespace this server knows (served, or being deleted) that has {@code keyspace} on
   * another cluster than {@code cluster}; empty when none, or when the server names no clusters.
   */
  public Optional<NamespaceEntry> conflict(String namespace, String keyspace, String cluster) {
    if (!mapper.routesByCluster()) {
      return Optional.empty();
    }
    return clustersByKeyspace.getOrDefault(keyspace, new ConcurrentHashMap<>()).entrySet().stream()
        .filter(e -> !e.getKey().equals(namespace) && !e.getValue().equals(cluster))
        .map(e -> entries.get(e.getKey()))
        .filter(java.util.Objects::nonNull)
        .findFirst();
  }
}
