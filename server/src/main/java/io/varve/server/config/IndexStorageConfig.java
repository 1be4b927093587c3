package io.varve.server.config;

import io.varve.api.timeseries.v1.IndexConfig;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.namespace.Consistency;
import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Validates an INDEX_STORAGE entry. The entry is stored with the namespace for the search and
 * aggregate APIs; this version of the service does not index events yet.
 */
final class IndexStorageConfig {

  private IndexStorageConfig() {}

  static PersistenceConfiguration validate(PersistenceConfiguration entry, String path) {
    String type = entry.getPhysicalStorage().getType().toUpperCase(Locale.ROOT);
    if (!type.equals("OPENSEARCH") && !type.equals("ELASTICSEARCH")) {
      throw new InvalidFieldException(path + ".physicalStorage.type", entry.getPhysicalStorage().getType(),
          "OPENSEARCH or ELASTICSEARCH");
    }
    String dataset = entry.getPhysicalStorage().getDataset();
    if (!dataset.matches("[a-z0-9][a-z0-9_\\-]{0,199}")) {
      throw new InvalidFieldException(path + ".physicalStorage.dataset", dataset,
          "a base index name: lower case letters, digits, '_' or '-', 1..200 characters");
    }
    StorageConfig config = entry.getConfig();
    String cfg = path + ".config";
    if (config.getTimePartition().hasSecondsPerSlice() && config.getTimePartition().getSecondsPerSlice() <= 0) {
      throw new InvalidFieldException(cfg + ".timePartition.secondsPerSlice",
          config.getTimePartition().getSecondsPerSlice(), "a positive number of seconds");
    }
    if (!config.getConsistencyScope().isEmpty()) {
      Consistency.parseScope(cfg + ".consistencyScope", config.getConsistencyScope());
    }
    if (!config.getConsistencyTarget().isEmpty()) {
      Consistency.parseTarget(cfg + ".consistencyTarget", config.getConsistencyTarget());
    }
    if (config.hasAcceptLimit()) {
      ConfigDurations.positive(cfg + ".acceptLimit", config.getAcceptLimit());
    }
    IndexConfig index = config.getIndexConfig();
    for (Map.Entry<String, String> field : index.getFieldMappingMap().entrySet()) {
      String fieldPath = cfg + ".indexConfig.fieldMapping." + field.getKey();
      if (field.getKey().isEmpty() || field.getKey().getBytes(StandardCharsets.UTF_8).length > 256) {
        throw InvalidFieldException.of(cfg + ".indexConfig.fieldMapping", "field name '" + field.getKey()
            + "' (expected: 1..256 bytes of UTF-8)");
      }
      if (!NamespaceConfigMapper.INDEX_TYPES.contains(field.getValue().toUpperCase(Locale.ROOT))) {
        throw new InvalidFieldException(fieldPath, field.getValue(), "one of " + NamespaceConfigMapper.INDEX_TYPES);
      }
    }
    if (index.hasRefreshInterval()) {
      ConfigDurations.positive(cfg + ".indexConfig.refreshInterval", index.getRefreshInterval());
    }
    NamespaceConfigMapper.retention(entry.getLifecycleConfigs(), path + ".lifecycleConfigs");
    return entry.toBuilder().setPhysicalStorage(entry.getPhysicalStorage().toBuilder().setType(type)).build();
  }
}
