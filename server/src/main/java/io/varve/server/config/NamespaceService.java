package io.varve.server.config;

import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.core.error.InvalidFieldException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The service a namespace belongs to. The request's {@code service} field says it; when empty, the
 * configuration's shape does: keys only a KeyValue namespace has (a {@code CACHE} entry, {@code
 * physical_storage.table}, {@code .regions} or {@code .config}, {@code config.clustering_order} or
 * {@code config.default_cache_ttl}) make it KEY_VALUE; otherwise it is TIME_SERIES, which is also
 * what every namespace stored before KeyValue existed is. A configuration holding keys of both, or
 * keys of the other service than the one named, is refused naming the first such key.
 */
public enum NamespaceService {
  TIME_SERIES,
  KEY_VALUE;

  static final String CACHE = "CACHE";

  /** The service of a configuration; INVALID_ARGUMENT naming the field when it is ambiguous. */
  public static NamespaceService of(String explicit, List<PersistenceConfiguration> entries) {
    Optional<String> kv = first(entries, true);
    Optional<String> ts = first(entries, false);
    if (!explicit.isEmpty()) {
      NamespaceService named = parse(explicit);
      Optional<String> foreign = named == KEY_VALUE ? ts : kv;
      foreign.ifPresent(
          field -> {
            throw InvalidFieldException.of(
                field,
                "set in a "
                    + named
                    + " namespace (expected: only keys of "
                    + named
                    + ", docs/namespace-configuration.md)");
          });
      return named;
    }
    if (kv.isPresent() && ts.isPresent()) {
      throw InvalidFieldException.of(
          kv.get(),
          "a KEY_VALUE key in a configuration that also has the TIME_SERIES key "
              + ts.get()
              + " (expected: the keys of one service; `service` says which)");
    }
    return kv.isPresent() ? KEY_VALUE : TIME_SERIES;
  }

  static NamespaceService parse(String value) {
    for (NamespaceService service : values()) {
      if (service.name().equalsIgnoreCase(value.replace('-', '_'))) {
        return service;
      }
    }
    throw new InvalidFieldException("service", value, "TIME_SERIES or KEY_VALUE");
  }

  /** The path of the first key of a KeyValue ({@code keyValue}) or TimeSeries configuration. */
  private static Optional<String> first(List<PersistenceConfiguration> entries, boolean keyValue) {
    List<String> found = new ArrayList<>();
    for (int i = 0; i < entries.size(); i++) {
      PersistenceConfiguration e = entries.get(i);
      String path = NamespaceConfigMapper.ROOT + "[" + i + "]";
      StorageConfig c = e.getConfig();
      String id = e.getId().toUpperCase(Locale.ROOT);
      if (keyValue) {
        add(found, id.equals(CACHE), path + ".id");
        add(found, !e.getPhysicalStorage().getTable().isEmpty(), path + ".physicalStorage.table");
        add(found, e.getPhysicalStorage().getRegionsCount() > 0, path + ".physicalStorage.regions");
        add(found, e.getPhysicalStorage().hasConfig(), path + ".physicalStorage.config");
        add(found, !c.getClusteringOrder().isEmpty(), path + ".config.clusteringOrder");
        add(found, c.hasDefaultCacheTtl(), path + ".config.defaultCacheTtl");
      } else {
        add(found, id.equals(NamespaceConfigMapper.INDEX), path + ".id");
        add(found, c.hasTimePartition(), path + ".config.timePartition");
        add(found, c.hasQueueBuffering(), path + ".config.queueBuffering");
        add(found, c.hasAcceptLimit(), path + ".config.acceptLimit");
        add(found, c.hasIndexConfig(), path + ".config.indexConfig");
        add(found, e.hasLifecycleConfigs(), path + ".lifecycleConfigs");
      }
    }
    return found.stream().findFirst();
  }

  private static void add(List<String> found, boolean present, String path) {
    if (present) {
      found.add(path);
    }
  }
}
