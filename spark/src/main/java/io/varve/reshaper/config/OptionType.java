package io.varve.reshaper.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The type and range of one job option: turns the YAML value into a Java value, and says what
 * it accepts in one phrase that serves both the error ({@code key: value (expected: phrase)})
 * and the reference docs. Stateless.
 *
 * @param <T> the Java type of the value
 */
interface OptionType<T> {

  /** What the option accepts, e.g. {@code an integer 1..65535}. */
  String expected();

  /** Converts a present value; throws {@link ConfigException} naming {@code key}. */
  T parse(String key, Object value);

  /** Converts the values of this type further. */
  default <R> OptionType<R> map(Function<T, R> f) {
    return of(expected(), (key, v) -> f.apply(parse(key, v)));
  }

  /** An integer between {@code min} and {@code max}, both included. */
  static OptionType<Integer> integer(int min, int max) {
    return longInteger(min, max).map(Long::intValue);
  }

  /** An integer between {@code min} and {@code max}, both included. */
  static OptionType<Long> longInteger(long min, long max) {
    String range = max == Long.MAX_VALUE ? "an integer >= " + min : "an integer " + min + ".." + max;
    return of(range, (key, v) -> {
      long n;
      try {
        n = v instanceof Number num && !(v instanceof Double || v instanceof Float)
            ? num.longValue() : Long.parseLong(String.valueOf(v).trim());
      } catch (NumberFormatException e) {
        throw new ConfigException(key, v, range);
      }
      if (n < min || n > max) {
        throw new ConfigException(key, v, range);
      }
      return n;
    });
  }

  /** A finite decimal number of at least {@code min}. */
  static OptionType<Double> decimal(double min) {
    String range = "a number >= " + (min == Math.rint(min) ? Long.toString((long) min) : min);
    return of(range, (key, v) -> {
      try {
        double d = v instanceof Number num ? num.doubleValue()
            : Double.parseDouble(String.valueOf(v));
        if (d >= min && Double.isFinite(d)) {
          return d;
        }
      } catch (NumberFormatException e) {
        // refused below
      }
      throw new ConfigException(key, v, range);
    });
  }

  /** {@code true} or {@code false}. */
  static OptionType<Boolean> bool() {
    return of("true or false", (key, v) -> {
      if (v instanceof Boolean b) {
        return b;
      }
      String s = String.valueOf(v).trim().toLowerCase(Locale.ROOT);
      if (s.equals("true") || s.equals("false")) {
        return Boolean.parseBoolean(s);
      }
      throw new ConfigException(key, v, "true or false");
    });
  }

  /** One scalar value, as written. */
  static OptionType<String> text() {
    return text("text");
  }

  /** One scalar value that is not blank, trimmed; {@code expected} says what it should name. */
  static OptionType<String> nonBlank(String expected) {
    OptionType<String> text = text(expected);
    return of(expected, (key, v) -> {
      String s = text.parse(key, v);
      if (s.isBlank()) {
        throw new ConfigException(key, "'" + s + "'", expected);
      }
      return s.trim();
    });
  }

  /** One scalar value; {@code expected} says what it should name. */
  static OptionType<String> text(String expected) {
    return of(expected, (key, v) -> {
      if (v instanceof Map || v instanceof List) {
        throw new ConfigException(key, v, expected);
      }
      return String.valueOf(v);
    });
  }

  /** One of {@code values}, matched ignoring case, as the value's {@code toString()}. */
  @SafeVarargs
  static <T> OptionType<T> oneOf(T... values) {
    List<String> names = new ArrayList<>();
    for (T v : values) {
      names.add(v.toString());
    }
    return oneOf("one of " + String.join(", ", names), List.of(values));
  }

  /** One of {@code values}, matched ignoring case; {@code expected} describes them. */
  static <T> OptionType<T> oneOf(String expected, List<T> values) {
    Map<String, T> byName = new LinkedHashMap<>();
    for (T v : values) {
      byName.put(v.toString().toLowerCase(Locale.ROOT), v);
    }
    return of(expected, (key, v) -> {
      T found = v instanceof Map || v instanceof List ? null
          : byName.get(String.valueOf(v).trim().toLowerCase(Locale.ROOT));
      if (found == null) {
        throw new ConfigException(key, v, expected);
      }
      return found;
    });
  }

  /** A list of scalar values. */
  static OptionType<List<String>> textList() {
    return of("a list", (key, v) -> {
      if (!(v instanceof List<?> list)) {
        throw new ConfigException(key, v, "a list");
      }
      return list.stream().map(String::valueOf).toList();
    });
  }

  /**
   * A mapping of names starting with {@code prefix} to scalar values; an entry that breaks
   * this is refused under its own key, as {@code entryExpected}.
   */
  static OptionType<Map<String, String>> mapping(String prefix, String expected,
      String entryExpected) {
    return of(expected, (key, v) -> {
      if (!(v instanceof Map<?, ?>)) {
        throw new ConfigException(key, v, expected);
      }
      Map<String, String> out = new LinkedHashMap<>();
      YamlSection.of(key, v).raw().forEach((name, value) -> {
        if (!name.startsWith(prefix) || value == null || value instanceof Map
            || value instanceof List) {
          throw new ConfigException(key + "." + name, value, entryExpected);
        }
        out.put(name, String.valueOf(value));
      });
      return Map.copyOf(out);
    });
  }

  /** A list of {@code {from: <source column>, to: <target column>}} entries. */
  static OptionType<List<JobConfig.Rename>> renames() {
    String expected = "a list of {from: source column, to: target column}";
    OptionType<String> from = nonBlank("a source column name");
    OptionType<String> to = nonBlank("a target column name");
    return of(expected, (key, v) -> {
      if (!(v instanceof List<?> list)) {
        throw new ConfigException(key, v, expected);
      }
      List<JobConfig.Rename> out = new ArrayList<>();
      for (int i = 0; i < list.size(); i++) {
        YamlSection entry = YamlSection.of(key + "[" + i + "]", list.get(i));
        entry.checkKeys(Set.of("from", "to"), Set.of());
        out.add(new JobConfig.Rename(required(entry, "from", from), required(entry, "to", to)));
      }
      return List.copyOf(out);
    });
  }

  private static String required(YamlSection section, String name, OptionType<String> type) {
    Object v = section.raw().get(name);
    if (v == null) {
      throw new ConfigException(section.key(name), "missing", type.expected());
    }
    return type.parse(section.key(name), v);
  }

  /** A key that is accepted for compatibility and has no effect. */
  static OptionType<Void> ignored() {
    return of("any value; it has no effect", (key, v) -> null);
  }

  /** A type from its phrase and its conversion. */
  static <T> OptionType<T> of(String expected, Parser<T> parser) {
    return new OptionType<>() {
      @Override
      public String expected() {
        return expected;
      }

      @Override
      public T parse(String key, Object value) {
        return parser.parse(key, value);
      }
    };
  }

  /** The conversion of a present value. */
  @FunctionalInterface
  interface Parser<T> {
    T parse(String key, Object value);
  }
}
