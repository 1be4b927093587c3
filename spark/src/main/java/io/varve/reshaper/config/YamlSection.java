package io.varve.reshaper.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One mapping of the job's YAML file and its full key, the reader {@link JobOption}s navigate.
 * Not thread-safe; used only while loading.
 */
final class YamlSection {
  private final String path;
  private final Map<String, Object> values;

  private YamlSection(String path, Map<String, Object> values) {
    this.path = path;
    this.values = values;
  }

  /** The mapping {@code value} found at {@code path}; an absent one is empty. */
  static YamlSection of(String path, Object value) {
    if (value == null) {
      return new YamlSection(path, Map.of());
    }
    if (!(value instanceof Map<?, ?> map)) {
      throw new ConfigException(path, value, "a mapping of keys to values");
    }
    Map<String, Object> copy = new LinkedHashMap<>();
    map.forEach((k, v) -> copy.put(String.valueOf(k), v));
    return new YamlSection(path, copy);
  }

  /** The full key of {@code name} in this section. */
  String key(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  boolean has(String name) {
    return values.get(name) != null;
  }

  Map<String, Object> raw() {
    return values;
  }

  YamlSection section(String name) {
    return of(key(name), values.get(name));
  }

  /**
   * Refuses keys that are neither known nor ignored, naming the known ones; returns a warning
   * for each ignored key present.
   */
  List<String> checkKeys(Set<String> known, Set<String> ignored) {
    List<String> warnings = new ArrayList<>();
    for (String name : values.keySet()) {
      if (known.contains(name)) {
        continue;
      }
      if (ignored.contains(name)) {
        warnings.add(key(name) + " is accepted for compatibility with the ScyllaDB migrator but"
            + " has no effect");
        continue;
      }
      throw new ConfigException(key(name), values.get(name),
          "one of the keys " + String.join(", ", new TreeSet<>(known)));
    }
    return warnings;
  }

  /** {@link #checkKeys} with the keys {@link JobOptions} knows under {@code parent}. */
  List<String> checkKeys(Set<JobOption.Scope> scopes, String parent) {
    return checkKeys(JobOptions.names(scopes, parent, false),
        JobOptions.names(scopes, parent, true));
  }
}
