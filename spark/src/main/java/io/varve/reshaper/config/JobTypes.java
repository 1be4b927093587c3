package io.varve.reshaper.config;

import io.varve.options.OptionException;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.RejectedValue;
import io.varve.options.Types;
import io.varve.options.ValueType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Date;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The value types of the job file: the options module's {@link Types}, each said in the one phrase
 * that serves both the error ({@code key: value (expected: phrase)}, the value as written) and the
 * docs tables of {@code docs/reshaper.md}; and the few the job file alone has (decimals, mappings
 * of connector options, renames, the {@code source} and {@code target} sections). Stateless.
 */
final class JobTypes {

  private JobTypes() {}

  /** {@code base}, described as {@code expected}, its refusals showing the value as written. */
  static <T> ValueType<T> phrased(ValueType<T> base, String expected) {
    return ValueType.of(
        expected,
        (raw, key) -> {
          try {
            return base.parse(raw, key);
          } catch (RejectedValue e) {
            throw refused(raw, expected);
          }
        },
        base::format);
  }

  /** An integer between {@code min} and {@code max}, both included. */
  static ValueType<Integer> integer(int min, int max) {
    return phrased(Types.integer(min, max), "an integer " + min + ".." + max);
  }

  /** An integer between {@code min} and {@code max}, both included. */
  static ValueType<Long> longInteger(long min, long max) {
    return phrased(
        Types.longInteger(min, max),
        max == Long.MAX_VALUE ? "an integer >= " + min : "an integer " + min + ".." + max);
  }

  /** A finite decimal number of at least {@code min}. */
  static ValueType<Double> decimal(double min) {
    String expected = "a number >= " + (min == Math.rint(min) ? Long.toString((long) min) : min);
    return ValueType.of(
        expected,
        (raw, key) -> {
          try {
            double d =
                raw instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(raw));
            if (d >= min && Double.isFinite(d)) {
              return d;
            }
          } catch (NumberFormatException e) {
            // refused below
          }
          throw refused(raw, expected);
        },
        String::valueOf);
  }

  /** A number in {@code [min, max]}. */
  static ValueType<Double> decimal(double min, double max) {
    String expected = "a number " + min + ".." + max;
    return ValueType.of(
        expected,
        (raw, key) -> {
          try {
            double d =
                raw instanceof Number n ? n.doubleValue() : Double.parseDouble(String.valueOf(raw));
            if (d >= min && d <= max) {
              return d;
            }
          } catch (NumberFormatException e) {
            // refused below
          }
          throw refused(raw, expected);
        },
        String::valueOf);
  }

  /**
   * An ISO-8601 instant with its offset, e.g. {@code 2026-11-29T00:00:00Z}. SnakeYAML reads an
   * unquoted one as a timestamp (a {@link Date}), which is taken as the same instant.
   */
  static ValueType<Instant> instant() {
    String expected = "an ISO-8601 instant like 2026-11-29T00:00:00Z";
    return ValueType.of(
        expected,
        (raw, key) -> {
          if (raw instanceof Date date) {
            return date.toInstant();
          }
          try {
            return Instant.parse(String.valueOf(raw).trim());
          } catch (DateTimeParseException e) {
            throw refused(raw, expected);
          }
        },
        Instant::toString);
  }

  /**
   * A part of the Murmur3 token ring, written {@code START,END}: the tokens above START up to END,
   * START below END.
   */
  static ValueType<NamespaceSourceOptions.TokenSpan> tokenSpan() {
    String expected = "two Murmur3 tokens START,END, START below END: the range (START, END]";
    return ValueType.of(
        expected,
        (raw, key) -> {
          String[] bounds = String.valueOf(raw).split(",", -1);
          if (bounds.length == 2) {
            try {
              long start = Long.parseLong(bounds[0].trim());
              long end = Long.parseLong(bounds[1].trim());
              if (start < end) {
                return new NamespaceSourceOptions.TokenSpan(start, end);
              }
            } catch (NumberFormatException e) {
              // refused below
            }
          }
          throw refused(raw, expected);
        },
        s -> s.start() + "," + s.end());
  }

  /** {@code true} or {@code false}. */
  static ValueType<Boolean> bool() {
    return phrased(Types.bool(), "true or false");
  }

  /** One scalar value, as written. */
  static ValueType<String> text() {
    return text("text");
  }

  /** One scalar value; {@code expected} says what it should name. */
  static ValueType<String> text(String expected) {
    return phrased(Types.string(), expected);
  }

  /** One scalar value that is not blank, trimmed; {@code expected} says what it should name. */
  static ValueType<String> nonBlank(String expected) {
    ValueType<String> text = text(expected);
    return ValueType.of(
        expected,
        (raw, key) -> {
          String s = text.parse(raw, key);
          if (s.isBlank()) {
            throw RejectedValue.showing("'" + s + "'", expected);
          }
          return s.trim();
        },
        text::format);
  }

  /** One of {@code values}, matched ignoring case, as the value's {@code toString()}. */
  @SafeVarargs
  static <T> ValueType<T> oneOf(T... values) {
    return oneOf(
        "one of " + List.of(values).stream().map(String::valueOf).collect(Collectors.joining(", ")),
        List.of(values));
  }

  /** One of {@code values}, matched ignoring case; {@code expected} describes them. */
  static <T> ValueType<T> oneOf(String expected, List<T> values) {
    Map<String, T> byName = new LinkedHashMap<>();
    values.forEach(v -> byName.put(v.toString(), v));
    ValueType<String> names =
        phrased(Types.oneOfIgnoringCase(byName.keySet().toArray(String[]::new)), expected);
    return ValueType.of(expected, (raw, key) -> byName.get(names.parse(raw, key)), String::valueOf);
  }

  /** A list of scalar values. */
  static ValueType<List<String>> textList() {
    return phrased(Types.strings(), "a list");
  }

  /**
   * A mapping of names starting with {@code prefix} to scalar values; an entry that breaks this is
   * refused under its own key, as {@code entryExpected}.
   */
  static ValueType<Map<String, String>> mapping(
      String prefix, String expected, String entryExpected) {
    return ValueType.of(
        expected,
        (raw, key) -> {
          if (!(raw instanceof Map<?, ?> map)) {
            throw refused(raw, expected);
          }
          Map<String, String> out = new LinkedHashMap<>();
          map.forEach(
              (k, value) -> {
                String name = String.valueOf(k);
                if (!name.startsWith(prefix)
                    || value == null
                    || value instanceof Map
                    || value instanceof List) {
                  throw new OptionException(key + "." + name, String.valueOf(value), entryExpected);
                }
                out.put(name, String.valueOf(value));
              });
          return Map.copyOf(out);
        },
        String::valueOf);
  }

  /**
   * A list of mappings, each read with the options of {@code entry} and named {@code key[i]}, then
   * turned into {@code T} by {@code read}.
   */
  static <T> ValueType<List<T>> entries(
      Options entry, String expected, Function<OptionValues, T> read) {
    ValueType<List<OptionValues>> mappings = phrased(Types.mappings(entry), expected);
    return ValueType.of(
        expected,
        (raw, key) -> mappings.parse(raw, key).stream().map(read).toList(),
        list -> list.isEmpty() ? "[]" : "[...]");
  }

  /** A mapping read with the options of {@code section}; an empty one counts as missing. */
  static ValueType<OptionValues> section(Options section, String expected) {
    return ValueType.of(
        expected,
        (raw, key) -> {
          if (!(raw instanceof Map<?, ?> map) || map.isEmpty()) {
            throw raw instanceof Map
                ? RejectedValue.showing("missing", expected)
                : refused(raw, expected);
          }
          return OptionValues.fromTree(section, key, map);
        },
        values -> "{...}");
  }

  /**
   * A {@code source} or {@code target} section, read with the options of its {@code type}: {@code
   * byType}'s registry for those types, else {@code cql} (which checks {@code type} itself).
   */
  static ValueType<OptionValues> side(Options cql, Map<String, Options> byType, String expected) {
    ValueType<OptionValues> plain = section(cql, expected);
    return ValueType.of(
        expected,
        (raw, key) -> {
          Options typed =
              raw instanceof Map<?, ?> map && map.get("type") instanceof String type
                  ? byType.get(type)
                  : null;
          return typed == null ? plain.parse(raw, key) : section(typed, expected).parse(raw, key);
        },
        values -> "{...}");
  }

  /** A key that is accepted for compatibility and has no effect: any value. */
  static ValueType<Object> ignored() {
    return ValueType.of("any value; it has no effect", (raw, key) -> raw, String::valueOf);
  }

  private static RejectedValue refused(Object raw, String expected) {
    return RejectedValue.showing(String.valueOf(raw), expected);
  }
}
