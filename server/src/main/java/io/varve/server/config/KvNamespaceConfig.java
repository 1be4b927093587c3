package io.varve.server.config;

import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.PhysicalStorage;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.KvNamespace;
import io.varve.core.kv.KvSlos;
import io.varve.core.namespace.Consistency;
import io.varve.core.namespace.Names;
import io.varve.core.text.Characters;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;

/**
 * Reads a KeyValue namespace's {@code persistence_configuration}, the reference text's shape: one
 * PRIMARY_STORAGE entry whose {@code physical_storage} holds type, cluster, dataset (keyspace),
 * table, regions and {@code config} (consistency scope and target, clustering order, latency
 * objectives {@code slos}), and at most one CACHE entry with {@code config.default_cache_ttl}. Keys
 * and bounds: docs/namespace-configuration.md.
 */
final class KvNamespaceConfig {

  static final int MAX_REGIONS = 16;
  static final int MAX_REGION_LENGTH = 64;

  private KvNamespaceConfig() {}

  /** The settings and the normalized entries (defaults filled in). */
  record Mapped(KvNamespace settings, List<PersistenceConfiguration> normalized) {}

  static Mapped map(
      String namespace,
      List<PersistenceConfiguration> entries,
      String metadataKeyspace,
      Set<String> clusters) {
    KvNamespace primary = null;
    Optional<Duration> cacheTtl = Optional.empty();
    List<PersistenceConfiguration> normalized = new ArrayList<>();
    PersistenceConfiguration cache = null;
    for (int i = 0; i < entries.size(); i++) {
      PersistenceConfiguration entry = entries.get(i);
      String path = NamespaceConfigMapper.ROOT + "[" + i + "]";
      switch (entry.getId()) {
        case NamespaceConfigMapper.PRIMARY -> {
          if (primary != null) {
            throw InvalidFieldException.of(
                path + ".id",
                "a second " + NamespaceConfigMapper.PRIMARY + " entry (expected: exactly one)");
          }
          primary = primary(namespace, entry, path, metadataKeyspace, clusters);
        }
        case NamespaceService.CACHE -> {
          if (cache != null) {
            throw InvalidFieldException.of(
                path + ".id", "a second CACHE entry (expected: at most one)");
          }
          cache = cache(entry, path);
          cacheTtl =
              Optional.of(
                  Duration.ofSeconds(
                      cache.getConfig().getDefaultCacheTtl().getSeconds(),
                      cache.getConfig().getDefaultCacheTtl().getNanos()));
        }
        default ->
            throw new InvalidFieldException(
                path + ".id",
                entry.getId(),
                NamespaceConfigMapper.PRIMARY + " or CACHE (a KEY_VALUE namespace)");
      }
    }
    if (primary == null) {
      throw InvalidFieldException.of(
          NamespaceConfigMapper.ROOT,
          "no " + NamespaceConfigMapper.PRIMARY + " entry (expected: exactly one)");
    }
    KvNamespace settings =
        new KvNamespace(
            namespace,
            primary.keyspace(),
            primary.table(),
            primary.order(),
            primary.consistency(),
            cacheTtl,
            primary.slos());
    normalized.add(normalizedPrimary(entries, settings));
    if (cache != null) {
      normalized.add(cache);
    }
    return new Mapped(settings, normalized);
  }

  private static KvNamespace primary(
      String namespace,
      PersistenceConfiguration entry,
      String path,
      String metadataKeyspace,
      Set<String> clusters) {
    PhysicalStorage storage = entry.getPhysicalStorage();
    String ps = path + ".physicalStorage";
    String type =
        storage.getType().isEmpty() ? "CASSANDRA" : storage.getType().toUpperCase(Locale.ROOT);
    if (!type.equals("CASSANDRA") && !type.equals("SCYLLADB")) {
      throw new InvalidFieldException(ps + ".type", storage.getType(), "CASSANDRA or SCYLLADB");
    }
    NamespaceConfigMapper.cluster(storage.getCluster(), ps + ".cluster", clusters);
    String keyspace = storage.getDataset().isEmpty() ? namespace : storage.getDataset();
    Names.keyspace(ps + ".dataset", keyspace, metadataKeyspace);
    String table = storage.getTable().isEmpty() ? namespace : storage.getTable();
    if (!Names.IDENTIFIER.matcher(table).matches()) {
      throw new InvalidFieldException(ps + ".table", table, Names.EXPECTED);
    }
    if (storage.getRegionsCount() > MAX_REGIONS) {
      throw new InvalidFieldException(
          ps + ".regions", storage.getRegionsCount() + " regions", "at most " + MAX_REGIONS);
    }
    for (int r = 0; r < storage.getRegionsCount(); r++) {
      String region = storage.getRegions(r);
      if (region.isEmpty() || Characters.count(region) > MAX_REGION_LENGTH) {
        throw new InvalidFieldException(
            ps + ".regions[" + r + "]", region, "1.." + MAX_REGION_LENGTH + " characters");
      }
    }
    StorageConfig config = storage.getConfig();
    StorageConfig outer = entry.getConfig();
    String cfg = ps + ".config";
    String scope =
        pick(config.getConsistencyScope(), outer.getConsistencyScope(), cfg + ".consistencyScope");
    String target =
        pick(
            config.getConsistencyTarget(),
            outer.getConsistencyTarget(),
            cfg + ".consistencyTarget");
    Consistency consistency =
        new Consistency(
            scope.isEmpty()
                ? Consistency.DEFAULT.scope()
                : Consistency.parseScope(cfg + ".consistencyScope", scope),
            target.isEmpty()
                ? Consistency.DEFAULT.target()
                : Consistency.parseTarget(cfg + ".consistencyTarget", target));
    String order =
        pick(config.getClusteringOrder(), outer.getClusteringOrder(), cfg + ".clusteringOrder");
    ClusteringOrder clustering = ClusteringOrder.ASC;
    if (!order.isEmpty()) {
      try {
        clustering = ClusteringOrder.valueOf(order.toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new InvalidFieldException(cfg + ".clusteringOrder", order, "ASC or DESC");
      }
    }
    if (config.hasCompaction() || outer.hasCompaction()) {
      throw InvalidFieldException.of(
          path + ".config.compaction",
          "set in a KEY_VALUE namespace (expected: absent; slice tables, which it is for, are"
              + " TimeSeries ones)");
    }
    if (config.hasDefaultCacheTtl() || outer.hasDefaultCacheTtl()) {
      throw InvalidFieldException.of(
          path + ".config.defaultCacheTtl",
          "set in " + NamespaceConfigMapper.PRIMARY + " (expected: in the CACHE entry)");
    }
    if (config.getSlosCount() > 0 && outer.getSlosCount() > 0) {
      throw InvalidFieldException.of(
          path + ".config.slos",
          "also set in physicalStorage.config (expected: in one of the two)");
    }
    return new KvNamespace(
        namespace,
        keyspace,
        table,
        clustering,
        consistency,
        Optional.empty(),
        config.getSlosCount() > 0
            ? SloConfig.read(KvSlos.CATALOG, config.getSlosMap(), cfg + ".slos")
            : SloConfig.read(KvSlos.CATALOG, outer.getSlosMap(), path + ".config.slos"));
  }

  /**
   * The value set in {@code physical_storage.config} or in the entry's {@code config}; both only
   * when equal.
   */
  private static String pick(String inner, String outer, String field) {
    if (!inner.isEmpty() && !outer.isEmpty() && !inner.equalsIgnoreCase(outer)) {
      throw InvalidFieldException.of(
          field,
          inner
              + " differs from the entry's config value "
              + outer
              + " (expected: one of the two, or equal)");
    }
    return inner.isEmpty() ? outer : inner;
  }

  private static PersistenceConfiguration cache(PersistenceConfiguration entry, String path) {
    String type = entry.getPhysicalStorage().getType();
    if (!type.isEmpty() && !type.equalsIgnoreCase("CACHE")) {
      throw new InvalidFieldException(path + ".physicalStorage.type", type, "CACHE");
    }
    Duration ttl =
        entry.getConfig().hasDefaultCacheTtl()
            ? ConfigDurations.positive(
                path + ".config.defaultCacheTtl", entry.getConfig().getDefaultCacheTtl())
            : KvNamespace.DEFAULT_CACHE_TTL;
    if (ttl.compareTo(KvNamespace.MIN_CACHE_TTL) < 0
        || ttl.compareTo(KvNamespace.MAX_CACHE_TTL) > 0) {
      throw new InvalidFieldException(
          path + ".config.defaultCacheTtl",
          InvalidFieldException.shown(ttl.toMillis() + "ms"),
          KvNamespace.MIN_CACHE_TTL.toSeconds()
              + "s.."
              + KvNamespace.MAX_CACHE_TTL.toSeconds()
              + "s");
    }
    return PersistenceConfiguration.newBuilder()
        .setId(NamespaceService.CACHE)
        .setPhysicalStorage(entry.getPhysicalStorage().toBuilder().setType("CACHE"))
        .setConfig(StorageConfig.newBuilder().setDefaultCacheTtl(ConfigDurations.of(ttl)))
        .build();
  }

  private static PersistenceConfiguration normalizedPrimary(
      List<PersistenceConfiguration> entries, KvNamespace s) {
    PersistenceConfiguration given =
        entries.stream()
            .filter(e -> e.getId().equals(NamespaceConfigMapper.PRIMARY))
            .findFirst()
            .orElseThrow();
    String type =
        given.getPhysicalStorage().getType().isEmpty()
            ? "CASSANDRA"
            : given.getPhysicalStorage().getType().toUpperCase(Locale.ROOT);
    return PersistenceConfiguration.newBuilder()
        .setId(NamespaceConfigMapper.PRIMARY)
        .setPhysicalStorage(
            given.getPhysicalStorage().toBuilder()
                .setType(type)
                .setDataset(s.keyspace())
                .setTable(s.table())
                .setConfig(
                    StorageConfig.newBuilder()
                        .setConsistencyScope(s.consistency().scope().name())
                        .setConsistencyTarget(s.consistency().target().name())
                        .setClusteringOrder(s.order().name())
                        .putAllSlos(SloConfig.write(s.slos()))))
        .build();
  }
}
