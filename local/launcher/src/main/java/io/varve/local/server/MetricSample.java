package io.varve.local.server;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * One sample line of the Prometheus text exposition format: {@code name{label="value",...} value
 * [timestamp]}.
 *
 * @param name the metric name as exposed (counters end in {@code _total}, summaries' and
 *     histograms' parts in {@code _count}, {@code _sum}, {@code _bucket}, {@code _max})
 * @param labels the labels in the order written, values unescaped ({@code \\}, {@code \"}, {@code
 *     \n})
 * @param value the value; {@code NaN}, {@code +Inf} and {@code -Inf} included
 */
public record MetricSample(String name, Map<String, String> labels, double value) {

  public MetricSample {
    labels = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(labels));
  }

  /** Parses a sample line (not a comment); {@code number} names the line in an error. */
  static MetricSample parse(String line, int number) {
    int i = 0;
    while (i < line.length() && line.charAt(i) != '{' && !Character.isWhitespace(line.charAt(i))) {
      i++;
    }
    String name = line.substring(0, i);
    if (name.isEmpty()) {
      throw malformed(number, line, "no metric name");
    }
    Map<String, String> labels = new LinkedHashMap<>();
    if (i < line.length() && line.charAt(i) == '{') {
      i = labels(line, i + 1, labels, number);
    }
    String[] rest = line.substring(i).strip().split("\\s+");
    if (rest.length < 1 || rest.length > 2 || rest[0].isEmpty()) {
      throw malformed(number, line, "expected a value and an optional timestamp");
    }
    return new MetricSample(name, labels, value(rest[0], number, line));
  }

  /** Reads {@code name="value"} pairs up to the closing brace; returns the index after it. */
  private static int labels(String line, int i, Map<String, String> into, int number) {
    while (true) {
      while (i < line.length() && (line.charAt(i) == ',' || line.charAt(i) == ' ')) {
        i++;
      }
      if (i < line.length() && line.charAt(i) == '}') {
        return i + 1;
      }
      int equals = line.indexOf('=', i);
      if (equals < 0 || equals + 1 >= line.length() || line.charAt(equals + 1) != '"') {
        throw malformed(number, line, "expected label=\"value\"");
      }
      String label = line.substring(i, equals).strip();
      StringBuilder value = new StringBuilder();
      int j = equals + 2;
      for (; j < line.length() && line.charAt(j) != '"'; j++) {
        char c = line.charAt(j);
        if (c == '\\' && j + 1 < line.length()) {
          char escaped = line.charAt(++j);
          value.append(escaped == 'n' ? '\n' : escaped);
        } else {
          value.append(c);
        }
      }
      if (j >= line.length()) {
        throw malformed(number, line, "unterminated label value");
      }
      into.put(label, value.toString());
      i = j + 1;
    }
  }

  /**
   * A number as the format writes it, labels' ({@code le="+Inf"}) included.
   *
   * @throws NumberFormatException when it is none
   */
  static double number(String text) {
    switch (text) {
      case "+Inf", "Inf":
        return Double.POSITIVE_INFINITY;
      case "-Inf":
        return Double.NEGATIVE_INFINITY;
      case "NaN":
        return Double.NaN;
      default:
        return Double.parseDouble(text);
    }
  }

  private static double value(String text, int number, String line) {
    try {
      return number(text);
    } catch (NumberFormatException e) {
      throw malformed(number, line, "not a number: " + text);
    }
  }

  private static IllegalArgumentException malformed(int number, String line, String why) {
    return new IllegalArgumentException(
        "metrics line " + number + " is not a sample (" + why + "): " + line);
  }
}
