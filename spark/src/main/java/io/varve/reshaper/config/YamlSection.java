package io.varve.reshaper.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * One mapping of the job's YAML file, read with typed accessors whose errors name the full key.
 * Not thread-safe; used only while loading.
 */
final class YamlSection {
  private final String path;
  private final Map<String, Object> values;

  YamlSection(String path, Map<String, Object> values) {
    this.path = path;
    this.values = values == null ? Map.of() : values;
  }

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

  String key(String name) {
    return path.isEmpty() ? name : path + "." + name;
  }

  boolean has(String name) {
    return values.get(name) != null;
  }

  Map<String, Object> raw() {
    return values;
  }

  /** Rejects keys that are neither known nor tolerated; tolerated ones are returned as warnings. */
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

  YamlSection section(String name) {
    return of(key(name), values.get(name));
  }

  String string(String name, String fallback) {
    Object v = values.get(name);
    if (v == null) {
      return fallback;
    }
    if (v instanceof Map || v instanceof List) {
      throw new ConfigException(key(name), v, "a single value");
    }
    return String.valueOf(v);
  }

  String requiredString(String name, String expected) {
    String v = string(name, null);
    if (v == null || v.isBlank()) {
      throw new ConfigException(key(name), v == null ? "missing" : "'" + v + "'", expected);
    }
    return v.trim();
  }

  long number(String name, long fallback, long min, long max) {
    Object v = values.get(name);
    if (v == null) {
      return fallback;
    }
    long n;
    try {
      n = v instanceof Number num && !(v instanceof Double || v instanceof Float)
          ? num.longValue() : Long.parseLong(String.valueOf(v).trim());
    } catch (NumberFormatException e) {
      throw new ConfigException(key(name), v, "an integer " + min + ".." + max);
    }
    if (n < min || n > max) {
      throw new ConfigException(key(name), v, "an integer " + min + ".." + max);
    }
    return n;
  }

  int integer(String name, int fallback, int min, int max) {
    return (int) number(name, fallback, min, max);
  }

  double decimal(String name, double fallback, double min) {
    Object v = values.get(name);
    if (v == null) {
      return fallback;
    }
    try {
      double d = v instanceof Number num ? num.doubleValue() : Double.parseDouble(String.valueOf(v));
      if (d < min || Double.isNaN(d) || Double.isInfinite(d)) {
        throw new NumberFormatException();
      }
      return d;
    } catch (NumberFormatException e) {
      throw new ConfigException(key(name), v, "a number >= " + min);
    }
  }

  boolean bool(String name, boolean fallback) {
    Object v = values.get(name);
    if (v == null) {
      return fallback;
    }
    if (v instanceof Boolean b) {
      return b;
    }
    String s = String.valueOf(v).trim().toLowerCase(Locale.ROOT);
    if (s.equals("true") || s.equals("false")) {
      return Boolean.parseBoolean(s);
    }
    throw new ConfigException(key(name), v, "true or false");
  }

  <E extends Enum<E>> E enumValue(String name, Class<E> type, E fallback) {
    String v = string(name, null);
    if (v == null) {
      return fallback;
    }
    List<String> names = new ArrayList<>();
    for (E e : type.getEnumConstants()) {
      names.add(e.toString());
      if (e.toString().equalsIgnoreCase(v.trim())) {
        return e;
      }
    }
    throw new ConfigException(key(name), v, "one of " + String.join(", ", names));
  }

  List<Object> list(String name) {
    Object v = values.get(name);
    if (v == null) {
      return List.of();
    }
    if (!(v instanceof List<?> l)) {
      throw new ConfigException(key(name), v, "a list");
    }
    return new ArrayList<>(l);
  }
}
