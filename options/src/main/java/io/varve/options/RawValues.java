package io.varve.options;

import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/** How raw values are shown: in errors as JSON text, in YAML files as plain or quoted scalars. */
final class RawValues {

  /** A scalar YAML may read back as the same string: no quote, no indicator. */
  private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./][A-Za-z0-9_./:@+-]*");

  /** What YAML 1.1 reads as a number: decimal, float, hexadecimal, octal or sexagesimal. */
  private static final Pattern NUMBER =
      Pattern.compile(
          "[-+]?([0-9][0-9_]*(\\.[0-9_]*)?([eE][-+]?[0-9]+)?|\\.[0-9]+|0x[0-9a-fA-F_]+|0o?[0-7_]+|[0-9][0-9_]*(:[0-5]?[0-9])+)");

  private static final List<String> RESERVED =
      List.of("true", "false", "yes", "no", "on", "off", "null", "y", "n");

  private RawValues() {}

  /** The value as JSON text: strings quoted, lists and mappings in brackets and braces. */
  static String json(Object raw) {
    if (raw == null) {
      return "null";
    }
    if (raw instanceof CharSequence text) {
      return quoted(text.toString());
    }
    if (raw instanceof Map<?, ?> map) {
      StringBuilder out = new StringBuilder("{");
      Iterator<? extends Map.Entry<?, ?>> entries = map.entrySet().iterator();
      while (entries.hasNext()) {
        Map.Entry<?, ?> e = entries.next();
        out.append(quoted(String.valueOf(e.getKey()))).append(':').append(json(e.getValue()));
        out.append(entries.hasNext() ? "," : "");
      }
      return out.append('}').toString();
    }
    if (raw instanceof List<?> list) {
      StringBuilder out = new StringBuilder("[");
      for (int i = 0; i < list.size(); i++) {
        out.append(i == 0 ? "" : ",").append(json(list.get(i)));
      }
      return out.append(']').toString();
    }
    return String.valueOf(raw);
  }

  /** What kind of value a raw value is, for errors that must not show it ({@code a string}). */
  static String kind(Object raw) {
    if (raw instanceof CharSequence) {
      return "string";
    }
    if (raw instanceof Map) {
      return "object";
    }
    if (raw instanceof List) {
      return "array";
    }
    return raw instanceof Boolean ? "boolean" : raw instanceof Number ? "number" : "null";
  }

  /** A string as a YAML scalar: plain when YAML reads it back as that string, else quoted. */
  static String yamlScalar(String value) {
    return PLAIN.matcher(value).matches()
            && !NUMBER.matcher(value).matches()
            && !RESERVED.contains(value.toLowerCase(Locale.ROOT))
        ? value
        : quoted(value);
  }

  static String quoted(String text) {
    StringBuilder out = new StringBuilder("\"");
    for (char c : text.toCharArray()) {
      switch (c) {
        case '"' -> out.append("\\\"");
        case '\\' -> out.append("\\\\");
        case '\n' -> out.append("\\n");
        case '\t' -> out.append("\\t");
        case '\r' -> out.append("\\r");
        default -> {
          if (c < 0x20) {
            out.append(String.format("\\u%04X", (int) c));
          } else {
            out.append(c);
          }
        }
      }
    }
    return out.append('"').toString();
  }
}
