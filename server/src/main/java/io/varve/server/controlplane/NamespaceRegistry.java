package io.varve.server.controlplane;

import io.varve.core.error.VarveException;
import io.varve.core.read.FanoutController;
import io.varve.core.store.MetadataStore;
import io.varve.core.store.NamespaceRecord;
import io.varve.server.config.NamespaceConfigMapper;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The namespaces this server serves, cached from the metadata store so that the data plane never
 * reads metadata on a request's path. Refreshed by the {@link SliceMaintainer} on every cycle and
 * updated at once by this server's own control-plane changes. Thread-safe.
 */
public final class NamespaceRegistry {

  private final MetadataStore store;
  private final NamespaceConfigMapper mapper;
  private final int fanout;
  private final int maxFanout;
  private final ConcurrentMap<String, NamespaceEntry> entries = new ConcurrentHashMap<>();

  public NamespaceRegistry(MetadataStore store, NamespaceConfigMapper mapper, int fanout, int maxFanout) {
    this.store = store;
    this.mapper = mapper;
    this.fanout = fanout;
    this.maxFanout = maxFanout;
  }

  /** The namespace, from the cache or else the store; NOT_FOUND if it does not exist. */
  public CompletionStage<NamespaceEntry> get(String namespace) {
    NamespaceEntry cached = entries.get(namespace);
    if (cached != null) {
      return CompletableFuture.completedFuture(cached);
    }
    return load(namespace);
  }

  /** Reads the namespace and its slices from the store and caches them. */
  public CompletionStage<NamespaceEntry> load(String namespace) {
    return store.get(namespace).thenCompose(record -> {
      if (record.isEmpty()) {
        throw VarveException.notFound("namespace '" + namespace + "' does not exist");
      }
      return store.slices(namespace).thenApply(slices -> put(entry(record.get()).withSlices(slices)));
    });
  }

  /** Reloads every namespace from the store. */
  public CompletionStage<Collection<NamespaceEntry>> refresh() {
    return store.list().thenCompose(records -> {
      List<CompletableFuture<NamespaceEntry>> loads = records.stream()
          .map(r -> store.slices(r.namespace()).thenApply(s -> put(entry(r).withSlices(s))).toCompletableFuture())
          .toList();
      entries.keySet().retainAll(records.stream().map(NamespaceRecord::namespace).toList());
      return CompletableFuture.allOf(loads.toArray(CompletableFuture[]::new))
          .thenApply(v -> loads.stream().map(CompletableFuture::join).toList());
    });
  }

  /** A fresh entry for a stored record (no slices yet), keeping any learned fan-out. */
  public NamespaceEntry entry(NamespaceRecord record) {
    NamespaceConfigMapper.Mapped mapped = mapper.map(record.namespace(), NamespaceDocuments.read(record.configJson()));
    NamespaceEntry previous = entries.get(record.namespace());
    FanoutController controller = previous != null ? previous.fanout() : new FanoutController(fanout, maxFanout);
    return new NamespaceEntry(record, mapped.settings(), mapped.normalized(), mapped.index(), List.of(), controller);
  }

  /** The namespaces cached now. */
  public Collection<NamespaceEntry> cached() {
    return List.copyOf(entries.values());
  }

  public NamespaceEntry put(NamespaceEntry entry) {
    NamespaceEntry previous = entries.get(entry.record().namespace());
    if (previous != null && previous.record().version() > entry.record().version()) {
      return previous;
    }
    entries.put(entry.record().namespace(), entry);
    return entry;
  }
}
