package io.varve.server.config;

import io.varve.api.timeseries.v1.IndexConfig;
import io.varve.api.timeseries.v1.PersistenceConfiguration;
import io.varve.api.timeseries.v1.StorageConfig;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.index.DocumentMode;
import io.varve.core.index.FieldType;
import io.varve.core.index.IndexSpec;
import io.varve.core.namespace.Consistency;
import io.varve.core.namespace.NamespaceBounds;
import io.varve.core.namespace.Retention;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * Validates an INDEX_STORAGE entry and derives the namespace's {@link IndexSpec}. Each index slice
 * is an index of the index store, so its width, the slices live writes may address (acceptLimit +
 * futureLimit + one slice) and those held until delete_after are bounded ({@link NamespaceBounds}).
 */
final class IndexStorageConfig {

  private IndexStorageConfig() {}

  /** The entry with defaults filled in, and what it means. */
  record Validated(PersistenceConfiguration normalized, IndexSpec spec) {}

  static Validated validate(
      String namespace,
      PersistenceConfiguration entry,
      String path,
      Duration primaryAcceptLimit,
      Duration futureLimit) {
    String type = entry.getPhysicalStorage().getType().toUpperCase(Locale.ROOT);
    if (!type.equals("OPENSEARCH") && !type.equals("ELASTICSEARCH")) {
      throw new InvalidFieldException(
          path + ".physicalStorage.type",
          entry.getPhysicalStorage().getType(),
          "OPENSEARCH or ELASTICSEARCH");
    }
    String dataset = entry.getPhysicalStorage().getDataset();
    if (!dataset.matches("[a-z0-9][a-z0-9_\\-]{0,199}")) {
      throw new InvalidFieldException(
          path + ".physicalStorage.dataset",
          dataset,
          "a base index name: lower case letters, digits, '_' or '-', 1..200 characters");
    }
    StorageConfig config = entry.getConfig();
    String cfg = path + ".config";
    long minSlice = NamespaceBounds.MIN_SECONDS_PER_INDEX_SLICE;
    long maxSlice = NamespaceBounds.MAX_SECONDS_PER_INDEX_SLICE;
    if (config.getTimePartition().hasSecondsPerSlice()
        && (config.getTimePartition().getSecondsPerSlice() < minSlice
            || config.getTimePartition().getSecondsPerSlice() > maxSlice)) {
      throw new InvalidFieldException(
          cfg + ".timePartition.secondsPerSlice",
          config.getTimePartition().getSecondsPerSlice(),
          minSlice + ".." + maxSlice + " seconds");
    }
    if (!config.getConsistencyScope().isEmpty()) {
      Consistency.parseScope(cfg + ".consistencyScope", config.getConsistencyScope());
    }
    if (!config.getConsistencyTarget().isEmpty()) {
      Consistency.parseTarget(cfg + ".consistencyTarget", config.getConsistencyTarget());
    }
    if (config.getTimePartition().hasAuto()) {
      throw InvalidFieldException.of(
          cfg + ".timePartition.auto",
          "not allowed in INDEX_STORAGE (expected: in the PRIMARY_STORAGE entry)");
    }
    if (config.hasCompaction()) {
      throw InvalidFieldException.of(
          cfg + ".compaction",
          "not allowed in INDEX_STORAGE (expected: in the PRIMARY_STORAGE entry)");
    }
    IndexConfig index = config.getIndexConfig();
    Map<String, FieldType> fields = new TreeMap<>();
    for (Map.Entry<String, String> field : index.getFieldMappingMap().entrySet()) {
      String fieldPath = cfg + ".indexConfig.fieldMapping." + field.getKey();
      if (field.getKey().isEmpty()
          || field.getKey().getBytes(StandardCharsets.UTF_8).length > 256) {
        throw InvalidFieldException.of(
            cfg + ".indexConfig.fieldMapping",
            "field name '" + field.getKey() + "' (expected: 1..256 bytes of UTF-8)");
      }
      FieldType fieldType = FieldType.named(field.getValue());
      if (fieldType == null) {
        throw new InvalidFieldException(
            fieldPath, field.getValue(), "one of " + List.of(FieldType.values()));
      }
      fields.put(field.getKey(), fieldType);
    }
    if (fields.size() > NamespaceBounds.MAX_INDEX_FIELDS) {
      throw InvalidFieldException.of(
          cfg + ".indexConfig.fieldMapping",
          fields.size() + " fields (expected: at most " + NamespaceBounds.MAX_INDEX_FIELDS + ")");
    }
    Duration refresh =
        index.hasRefreshInterval()
            ? ConfigDurations.bounded(
                cfg + ".indexConfig.refreshInterval", index.getRefreshInterval())
            : IndexSpec.DEFAULT_REFRESH_INTERVAL;
    if (refresh.compareTo(NamespaceBounds.MIN_REFRESH_INTERVAL) < 0) {
      throw new InvalidFieldException(
          cfg + ".indexConfig.refreshInterval",
          InvalidFieldException.shown(refresh.toMillis() + "ms"),
          "at least 1s");
    }
    DocumentMode mode = DocumentMode.REVERSE_INDEX;
    if (!index.getDocumentMode().isEmpty()) {
      try {
        mode = DocumentMode.valueOf(index.getDocumentMode().toUpperCase(Locale.ROOT));
      } catch (IllegalArgumentException e) {
        throw new InvalidFieldException(
            cfg + ".indexConfig.documentMode",
            index.getDocumentMode(),
            "REVERSE_INDEX or FULL_EVENT");
      }
    }
    long slice =
        config.getTimePartition().hasSecondsPerSlice()
            ? config.getTimePartition().getSecondsPerSlice()
            : IndexSpec.DEFAULT_SECONDS_PER_SLICE;
    Duration acceptLimit =
        config.hasAcceptLimit()
            ? ConfigDurations.bounded(cfg + ".acceptLimit", config.getAcceptLimit())
            : primaryAcceptLimit;
    Retention retention =
        NamespaceConfigMapper.retention(entry.getLifecycleConfigs(), path + ".lifecycleConfigs");
    // an absent acceptLimit is the primary's: the error still names this entry's key, the one to
    // set
    NamespaceBounds.window(
        cfg + ".acceptLimit",
        acceptLimit,
        futureLimit,
        slice,
        NamespaceBounds.MAX_INDEX_WINDOW_SLICES,
        "index slices");
    if (retention.deleteAfter().isPresent()) {
      NamespaceBounds.retained(
          NamespaceConfigMapper.deleteAfterPath(
              entry.getLifecycleConfigs(), path + ".lifecycleConfigs"),
          retention.deleteAfter().get(),
          acceptLimit,
          futureLimit,
          slice,
          NamespaceBounds.MAX_RETAINED_INDEX_SLICES,
          "index slices");
    }
    IndexSpec spec =
        new IndexSpec(namespace, dataset, slice, fields, refresh, mode, acceptLimit, retention);
    PersistenceConfiguration normalized =
        entry.toBuilder()
            .setPhysicalStorage(entry.getPhysicalStorage().toBuilder().setType(type))
            .setConfig(
                config.toBuilder()
                    .setTimePartition(
                        config.getTimePartition().toBuilder().setSecondsPerSlice(slice))
                    .setAcceptLimit(ConfigDurations.of(acceptLimit))
                    .setIndexConfig(
                        index.toBuilder()
                            .setRefreshInterval(ConfigDurations.of(refresh))
                            .setDocumentMode(mode.name())))
            .build();
    return new Validated(normalized, spec);
  }
}
