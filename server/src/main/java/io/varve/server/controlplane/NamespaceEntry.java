package io.varve.server.controlplane;

import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.error.VarveException;
import io.varve.core.index.IndexSpec;
import io.varve.core.kv.KvNamespace;
import io.varve.core.namespace.NamespaceSettings;
import io.varve.core.partitioning.TimeSlice;
import io.varve.core.read.FanoutController;
import io.varve.core.slo.Slos;
import io.varve.core.store.NamespaceRecord;
import io.varve.server.config.NamespaceConfigMapper;
import io.varve.server.config.NamespaceService;
import java.util.List;
import java.util.Optional;

/**
 * What the data plane knows of a namespace: its stored record, validated settings, effective
 * configuration, index settings (when it has INDEX_STORAGE), time slices (newest first) and the
 * adaptive read fan-out learned for it.
 *
 * <p>A namespace whose stored configuration does not pass today's validation (stored by an older
 * version under looser bounds) is <em>unserved</em>: {@code invalid} says why, {@code settings} is
 * null, {@code index} empty and {@code config} the stored configuration as read. Nothing acts on
 * it: the registry refuses it to the data plane and the maintainers skip it.
 *
 * <p>A KeyValue namespace has {@code keyValue} and neither {@code settings} nor slices.
 */
public record NamespaceEntry(
    NamespaceRecord record,
    NamespaceSettings settings,
    List<PersistenceConfiguration> config,
    Optional<IndexSpec> index,
    List<TimeSlice> slices,
    FanoutController fanout,
    Optional<String> invalid,
    NamespaceService service,
    Optional<KvNamespace> keyValue) {

  /** A namespace whose stored configuration is outside the bounds, with the reason. */
  static NamespaceEntry unserved(
      NamespaceRecord record,
      List<PersistenceConfiguration> stored,
      String reason,
      FanoutController fanout,
      NamespaceService service) {
    return new NamespaceEntry(
        record,
        null,
        stored,
        Optional.empty(),
        List.of(),
        fanout,
        Optional.of(reason),
        service,
        Optional.empty());
  }

  /**
   * The cluster its primary storage names ({@code physicalStorage.cluster}); empty for the default
   * cluster. Informational when the server names no clusters ({@code cassandra.clusters}).
   */
  public String cluster() {
    return cluster(config);
  }

  /** The cluster the primary entry of {@code config} names; empty for the default cluster. */
  public static String cluster(List<PersistenceConfiguration> config) {
    return config.stream()
        .filter(e -> e.getId().equals(NamespaceConfigMapper.PRIMARY))
        .findFirst()
        .map(e -> e.getPhysicalStorage().getCluster())
        .orElse("");
  }

  /**
   * The keyspace of its primary storage; for an unserved namespace, the dataset of its stored
   * primary entry (or its name, the default), so that an update fixing it cannot move it to another
   * keyspace and its deletion drops the tables it has.
   */
  public String keyspace() {
    if (keyValue.isPresent()) {
      return keyValue.get().keyspace();
    }
    if (settings != null) {
      return settings.keyspace();
    }
    return config.stream()
        .filter(c -> c.getId().equals(NamespaceConfigMapper.PRIMARY))
        .map(c -> c.getPhysicalStorage().getDataset())
        .filter(d -> !d.isEmpty())
        .findFirst()
        .orElse(record.namespace());
  }

  /** The latency objectives of a served namespace, whichever its service; empty when unserved. */
  public Optional<Slos> slos() {
    if (keyValue.isPresent()) {
      return Optional.of(keyValue.get().slos());
    }
    return settings == null ? Optional.empty() : Optional.of(settings.slos());
  }

  public NamespaceEntry withSlices(List<TimeSlice> newSlices) {
    return new NamespaceEntry(
        record,
        settings,
        config,
        index,
        List.copyOf(newSlices),
        fanout,
        invalid,
        service,
        keyValue);
  }

  /**
   * Whether the namespace may be written, read and maintained: its stored configuration is valid
   * and no DeleteNamespace marked it.
   */
  public boolean served() {
    return invalid.isEmpty() && !record.deleting();
  }

  /**
   * This entry when served; NOT_FOUND when it is being deleted; FAILED_PRECONDITION saying why and
   * how to fix it when its stored configuration is outside the bounds.
   */
  public NamespaceEntry requireServed() {
    if (record.deleting()) {
      throw VarveException.notFound(
          "namespace '"
              + record.namespace()
              + "' is being deleted (since "
              + record.deletingSince().get()
              + ")");
    }
    if (invalid.isPresent()) {
      throw VarveException.failedPrecondition(
          "namespace '"
              + record.namespace()
              + "' is not served: its stored"
              + " configuration is outside this server's bounds: "
              + invalid.get()
              + "; UpdateNamespace with valid values serves it again");
    }
    return this;
  }

  /**
   * This entry when it is a served namespace of {@code expected}; otherwise INVALID_ARGUMENT naming
   * {@code namespace}: the request went to the other service's RPC.
   */
  public NamespaceEntry requireService(NamespaceService expected) {
    if (service != expected) {
      throw new InvalidFieldException(
          "namespace",
          record.namespace(),
          "a "
              + expected
              + " namespace; this one"
              + " belongs to the "
              + service
              + " service, whose RPCs serve it");
    }
    return requireServed();
  }
}
