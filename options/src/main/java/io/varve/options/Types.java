package io.varve.options;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The common {@link ValueType}s. Each refuses a value with what it expected, in the docs' words.
 */
public final class Types {

  private Types() {}

  /** Any single value, as text (a number or boolean is read as its text); not a list or mapping. */
  public static ValueType<String> string() {
    return ValueType.of("string", Types::text, RawValues::yamlScalar);
  }

  /** A file path. */
  public static ValueType<Path> path() {
    return ValueType.of(
        "path", (raw, key) -> Path.of(text(raw, key)), p -> RawValues.yamlScalar(p.toString()));
  }

  /**
   * A string matching {@code pattern}, shown in the docs; {@code expected} says it in errors (in
   * words, or the pattern itself).
   */
  public static ValueType<String> matching(Pattern pattern, String expected) {
    return matching(pattern, "`" + pattern.pattern() + "`", expected);
  }

  /**
   * A string matching {@code pattern}, shown in the docs as {@code shown} (when the pattern itself
   * would say less than words); {@code expected} says it in errors.
   */
  public static ValueType<String> matching(Pattern pattern, String shown, String expected) {
    return ValueType.of(
        shown,
        (raw, key) -> {
          String text = text(raw, key);
          if (!pattern.matcher(text).matches()) {
            throw RejectedValue.expected(expected);
          }
          return text;
        },
        RawValues::yamlScalar);
  }

  /** One of {@code values}, exactly as written. */
  public static ValueType<String> oneOf(String... values) {
    return choice(false, values);
  }

  /** One of {@code values} in any case; read as written in {@code values}. */
  public static ValueType<String> oneOfIgnoringCase(String... values) {
    return choice(true, values);
  }

  /** {@code true} or {@code false} (a YAML boolean, or that text in any case). */
  public static ValueType<Boolean> bool() {
    return ValueType.of(
        "boolean",
        (raw, key) -> {
          String text = String.valueOf(raw).trim().toLowerCase(Locale.ROOT);
          if (raw instanceof Boolean b) {
            return b;
          }
          if (raw instanceof String && (text.equals("true") || text.equals("false"))) {
            return Boolean.parseBoolean(text);
          }
          throw RejectedValue.expected("true or false");
        },
        String::valueOf);
  }

  /** An integer in {@code min..max}. */
  public static ValueType<Integer> integer(int min, int max) {
    return new IntegerType<>("integer", min, max, v -> (int) v);
  }

  /** A number of bytes in {@code min..max}. */
  public static ValueType<Integer> bytes(int min, int max) {
    return new IntegerType<>("bytes", min, max, v -> (int) v);
  }

  /** A 64-bit integer in {@code min..max}. */
  public static ValueType<Long> longInteger(long min, long max) {
    return new IntegerType<>("integer", min, max, v -> v);
  }

  /** A positive duration: an integer and a unit among ms, s, m, h, d ({@code 30s}). */
  public static ValueType<Duration> duration() {
    return new DurationType();
  }

  /** A list of non-empty strings; an element that is not one is named {@code key[i]}. */
  public static ValueType<List<String>> strings() {
    return strings("strings");
  }

  /** A list of non-empty strings, each of a form the docs name (e.g. {@code `host:port`}). */
  public static ValueType<List<String>> strings(String elements) {
    return ValueType.of(
        "list of " + elements,
        (raw, key) -> {
          if (!(raw instanceof List<?> list)) {
            throw RejectedValue.expected("a list of strings");
          }
          List<String> out = new ArrayList<>();
          for (int i = 0; i < list.size(); i++) {
            Object e = list.get(i);
            if (e == null || e instanceof Map || e instanceof List || String.valueOf(e).isEmpty()) {
              throw new OptionException(
                  key + "[" + i + "]", RawValues.json(e), "a non-empty string");
            }
            out.add(String.valueOf(e));
          }
          return List.copyOf(out);
        },
        list -> list.stream().map(RawValues::quoted).collect(Collectors.joining(", ", "[", "]")));
  }

  /** A mapping of names to single values, read as text; written with its names in order. */
  public static ValueType<Map<String, String>> stringMap() {
    return ValueType.of(
        "mapping",
        (raw, key) -> {
          if (!(raw instanceof Map<?, ?> map)) {
            throw RejectedValue.expected("a mapping");
          }
          Map<String, String> out = new LinkedHashMap<>();
          map.forEach((k, v) -> out.put(String.valueOf(k), String.valueOf(v)));
          return out;
        },
        map ->
            new java.util.TreeMap<>(map)
                .entrySet().stream()
                    .map(
                        e ->
                            RawValues.yamlScalar(e.getKey())
                                + ": "
                                + (e.getValue().matches("\\d{1,9}")
                                    ? e.getValue()
                                    : RawValues.yamlScalar(e.getValue())))
                    .collect(Collectors.joining(", ", "{", "}")));
  }

  /**
   * A list of mappings, each read with the options of {@code entry} and named {@code key[i]}.
   * Values that are not mappings are described, never shown: such lists often hold secrets.
   */
  public static ValueType<List<OptionValues>> mappings(Options entry) {
    return new EntryListType(entry);
  }

  private static ValueType<String> choice(boolean ignoringCase, String... values) {
    List<String> allowed = List.of(values);
    String expected =
        allowed.size() == 2
            ? allowed.get(0) + " or " + allowed.get(1)
            : "one of " + String.join(", ", allowed);
    String described =
        allowed.stream()
            .map(v -> "`" + v + "`")
            .collect(
                Collectors.joining(
                    allowed.size() == 2 ? " or " : ", ", allowed.size() == 2 ? "" : "one of ", ""));
    return ValueType.of(
        described + (ignoringCase ? ", any case" : ""),
        (raw, key) -> {
          String text = text(raw, key).trim();
          for (String value : allowed) {
            if (ignoringCase ? value.equalsIgnoreCase(text) : value.equals(text)) {
              return value;
            }
          }
          throw RejectedValue.expected(expected);
        },
        RawValues::yamlScalar);
  }

  private static String text(Object raw, String key) {
    if (raw instanceof Map || raw instanceof List) {
      throw RejectedValue.expected("a string");
    }
    return String.valueOf(raw);
  }
}
