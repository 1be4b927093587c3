package io.varve.server.config;

import com.fasterxml.jackson.databind.JsonNode;
import io.varve.core.error.InvalidFieldException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One section of the server's YAML configuration, read with typed getters whose errors name the
 * full key ({@code cassandra.requestTimeout: "5 parsecs" (expected: a duration such as 5s)}).
 * Unknown keys are refused, so a typo never goes unnoticed.
 */
final class ConfigNode {

  private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

  private final JsonNode node;
  private final String path;

  ConfigNode(JsonNode node, String path) {
    this.node = node;
    this.path = path;
  }

  /** Fails if the section has keys other than {@code known}. */
  ConfigNode only(Set<String> known) {
    if (absent(node)) {
      return this;
    }
    if (!node.isObject()) {
      throw new InvalidFieldException(name(path), InvalidFieldException.shown(node.toString()), "a mapping");
    }
    Iterator<String> names = node.fieldNames();
    while (names.hasNext()) {
      String key = names.next();
      if (!known.contains(key)) {
        throw InvalidFieldException.of(key(key), "unknown key (expected one of: " + String.join(", ", known) + ")");
      }
    }
    return this;
  }

  ConfigNode section(String key) {
    return new ConfigNode(value(key), key(key));
  }

  boolean has(String key) {
    return value(key) != null;
  }

  String string(String key, String fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    if (!v.isValueNode()) {
      throw new InvalidFieldException(key(key), InvalidFieldException.shown(v.toString()), "a string");
    }
    return v.asText();
  }

  Optional<String> optionalString(String key) {
    return Optional.ofNullable(string(key, null));
  }

  int integer(String key, int fallback, int min, int max) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    long i;
    try {
      if (v.isIntegralNumber() && v.canConvertToLong()) {
        i = v.longValue();
      } else if (v.isTextual() && v.textValue().trim().matches("-?\\d{1,18}")) {
        i = Long.parseLong(v.textValue().trim());
      } else {
        throw new NumberFormatException();
      }
    } catch (NumberFormatException e) {
      throw new InvalidFieldException(key(key), InvalidFieldException.shown(v.toString()), "an integer in " + min + ".." + max);
    }
    if (i < min || i > max) {
      throw new InvalidFieldException(key(key), i, min + ".." + max);
    }
    return (int) i;
  }

  boolean bool(String key, boolean fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    if (!v.isBoolean()) {
      throw new InvalidFieldException(key(key), InvalidFieldException.shown(v.toString()), "true or false");
    }
    return v.booleanValue();
  }

  Duration duration(String key, Duration fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    Matcher m = DURATION.matcher(v.asText().trim());
    String expected = "a positive duration of at most 10000 days such as 5s (units: ms, s, m, h, d)";
    if (!v.isTextual() || !m.matches() || m.group(1).length() > 12) {
      throw new InvalidFieldException(key(key), InvalidFieldException.shown(v.toString()), expected);
    }
    long n = Long.parseLong(m.group(1));
    Duration d = switch (m.group(2)) {
      case "ms" -> Duration.ofMillis(n);
      case "s" -> Duration.ofSeconds(n);
      case "m" -> Duration.ofMinutes(n);
      case "h" -> Duration.ofHours(n);
      default -> Duration.ofDays(n);
    };
    if (d.isZero() || d.compareTo(Duration.ofDays(10_000)) > 0) {
      throw new InvalidFieldException(key(key), InvalidFieldException.shown(v.toString()), expected);
    }
    return d;
  }

  Optional<Path> path(String key) {
    return optionalString(key).map(Path::of);
  }

  List<String> strings(String key, List<String> fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    if (!v.isArray()) {
      throw new InvalidFieldException(key(key), InvalidFieldException.shown(v.toString()), "a list of strings");
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      JsonNode e = v.get(i);
      if (!e.isValueNode() || e.isNull() || e.asText().isEmpty()) {
        throw new InvalidFieldException(key(key) + "[" + i + "]", InvalidFieldException.shown(e.toString()),
            "a non-empty string");
      }
      out.add(e.asText());
    }
    return out;
  }

  /** The mappings of a list of mappings, each named {@code key[i]} in errors; empty when absent. */
  List<ConfigNode> sections(String key) {
    JsonNode v = value(key);
    if (v == null) {
      return List.of();
    }
    if (!v.isArray()) {
      // the value is not shown: a list of mappings often holds secrets, and a mistake may be one
      throw InvalidFieldException.of(key(key), "a " + v.getNodeType().name().toLowerCase(java.util.Locale.ROOT)
          + " (expected: a list of mappings)");
    }
    List<ConfigNode> out = new ArrayList<>();
    for (int i = 0; i < v.size(); i++) {
      if (!v.get(i).isObject()) {
        throw InvalidFieldException.of(key(key) + "[" + i + "]", "a "
            + v.get(i).getNodeType().name().toLowerCase(java.util.Locale.ROOT) + " (expected: a mapping)");
      }
      out.add(new ConfigNode(v.get(i), key(key) + "[" + i + "]"));
    }
    return out;
  }

  Map<String, String> stringMap(String key, Map<String, String> fallback) {
    JsonNode v = value(key);
    if (v == null) {
      return fallback;
    }
    if (!v.isObject()) {
      throw new InvalidFieldException(key(key), InvalidFieldException.shown(v.toString()), "a mapping");
    }
    Map<String, String> out = new LinkedHashMap<>();
    v.fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
    return out;
  }

  String key(String key) {
    return path.isEmpty() ? key : path + "." + key;
  }

  private JsonNode value(String key) {
    if (absent(node)) {
      return null;
    }
    JsonNode v = node.get(key);
    return absent(v) ? null : v;
  }

  private static boolean absent(JsonNode n) {
    return n == null || n.isNull() || n.isMissingNode();
  }

  private static String name(String path) {
    return path.isEmpty() ? "(root)" : path;
  }
}
