package io.varve.reshaper.config;

import java.util.Collection;
import java.util.Map;
import java.util.Objects;

/**
 * One key of the job file: where it lives, its type and range, its default and its line of
 * documentation. The registry of every key is {@link JobOptions}; the parser reads each key
 * through its option and the reference tables of {@code docs/reshaper.md} are generated from
 * the same options. Immutable.
 *
 * @param <T> the Java type of the value
 */
public final class JobOption<T> {

  /** The section a key belongs to. */
  public enum Scope {
    /** The job file itself: the path starts at the top. */
    JOB,
    /** Both the {@code source} and the {@code target} section. */
    SIDES,
    /** The {@code source} section only. */
    SOURCE,
    /** The {@code target} section only. */
    TARGET
  }

  private final Scope scope;
  private final String path;
  private final OptionType<T> type;
  private final T defaultValue;
  private final boolean required;
  private final String defaultDoc;
  private final String doc;

  JobOption(Scope scope, String path, OptionType<T> type, T defaultValue, boolean required,
      String defaultDoc, String doc) {
    this.scope = scope;
    this.path = path;
    this.type = type;
    this.defaultValue = defaultValue;
    this.required = required;
    this.defaultDoc = defaultDoc;
    this.doc = doc;
  }

  /** Where the key lives. */
  public Scope scope() {
    return scope;
  }

  /** The dotted path inside its scope's section, e.g. {@code sslOptions.enabled}. */
  public String path() {
    return path;
  }

  /** The key as the docs write it: the path, after {@code source.} or {@code target.} for keys of one side only. */
  public String key() {
    return switch (scope) {
      case SOURCE -> "source." + path;
      case TARGET -> "target." + path;
      default -> path;
    };
  }

  /** What the key accepts, as errors and docs say it. */
  public String expected() {
    return type.expected();
  }

  /** The value when the key is absent; null for none. */
  public T defaultValue() {
    return defaultValue;
  }

  /** True when the key has no default and must be given. */
  public boolean required() {
    return required;
  }

  /** The default as the docs write it: {@code required}, {@code none}, a value or a rule. */
  public String defaultDoc() {
    if (defaultDoc != null) {
      return defaultDoc;
    }
    if (required) {
      return "required";
    }
    boolean none = defaultValue == null || defaultValue instanceof Collection<?> c && c.isEmpty()
        || defaultValue instanceof Map<?, ?> m && m.isEmpty();
    return none ? "none" : "`" + defaultValue + "`";
  }

  /** The line of documentation. */
  public String doc() {
    return doc;
  }

  /** True for a key accepted for compatibility that has no effect. */
  public boolean ignored() {
    return doc == null;
  }

  /** This key's value in {@code section}, the section of its scope; the default when absent. */
  T read(YamlSection section) {
    YamlSection parent = parentIn(section);
    Object value = parent.raw().get(name());
    if (value == null) {
      if (required) {
        throw new ConfigException(parent.key(name()), "missing", type.expected());
      }
      return defaultValue;
    }
    return type.parse(parent.key(name()), value);
  }

  /** True when {@code section}, the section of its scope, gives this key a value. */
  boolean isSetIn(YamlSection section) {
    return parentIn(section).has(name());
  }

  /** The full key of this option in {@code section}, e.g. {@code target.fetchSize}. */
  String keyIn(YamlSection section) {
    return section.key(path);
  }

  private YamlSection parentIn(YamlSection section) {
    YamlSection parent = section;
    int dot = path.lastIndexOf('.');
    if (dot > 0) {
      for (String name : path.substring(0, dot).split("\\.")) {
        parent = parent.section(name);
      }
    }
    return parent;
  }

  private String name() {
    return path.substring(path.lastIndexOf('.') + 1);
  }

  @Override
  public String toString() {
    return key();
  }

  @Override
  public boolean equals(Object o) {
    return o instanceof JobOption<?> other && scope == other.scope && path.equals(other.path);
  }

  @Override
  public int hashCode() {
    return Objects.hash(scope, path);
  }
}
