package io.varve.monitoring;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What the tests read from a PromQL expression without a parser: the metric names it selects, and
 * the expression with Grafana's template variables replaced so that Prometheus itself can run it.
 */
final class PromQl {

  private PromQl() {}

  /**
   * Grafana's variables, as the tests replace them: every instance, namespace, method and worker
   * (the dashboards match them with {@code =~}), and fixed windows for the intervals Grafana
   * derives from the scrape interval and the panel's width.
   */
  static final Map<String, String> VARIABLES =
      Map.of(
          "__rate_interval", "30s",
          "__interval", "5s",
          "__range", "1m",
          "instance", ".*",
          "job", ".*",
          "namespace", ".*",
          "method", ".*",
          "worker", ".*");

  private static final Pattern VARIABLE =
      Pattern.compile("\\$\\{(\\w+)(?::\\w+)?}|\\[\\[(\\w+)(?::\\w+)?]]|\\$(\\w+)");

  /** Words of PromQL that are no metric: operators, modifiers and the clauses of aggregations. */
  private static final Set<String> KEYWORDS =
      Set.of(
          "and",
          "or",
          "unless",
          "by",
          "without",
          "on",
          "ignoring",
          "group_left",
          "group_right",
          "bool",
          "offset",
          "atan2",
          "inf",
          "nan");

  private static final Pattern STRING = Pattern.compile("\"(?:\\\\.|[^\"\\\\])*\"|'[^']*'");
  private static final Pattern MATCHERS = Pattern.compile("\\{[^}]*}");
  private static final Pattern RANGE = Pattern.compile("\\[[^]]*]");

  /** The label lists of grouping and matching clauses: {@code by (a, b)}, {@code on(a)}. */
  private static final Pattern LABEL_LIST =
      Pattern.compile("\\b(?:by|without|on|ignoring|group_left|group_right)\\s*\\([^)]*\\)");

  private static final Pattern IDENTIFIER =
      Pattern.compile("(?<![\\w.:])([a-zA-Z_:][a-zA-Z0-9_:]*)(\\s*\\()?");

  /** {@code expr} with every Grafana variable replaced; fails on a variable it does not know. */
  static String substitute(String expr) {
    Matcher m = VARIABLE.matcher(expr);
    StringBuilder out = new StringBuilder();
    while (m.find()) {
      String name = m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3);
      String value = VARIABLES.get(name);
      if (value == null) {
        throw new IllegalArgumentException("unknown variable $" + name + " in: " + expr);
      }
      m.appendReplacement(out, Matcher.quoteReplacement(value));
    }
    m.appendTail(out);
    return out.toString();
  }

  /**
   * The metric names {@code expr} selects: identifiers outside strings, label matchers, ranges and
   * label lists, not followed by a parenthesis (functions, aggregations) and not a keyword. A name
   * given only as {@code {__name__="..."}} is not seen; the dashboards and rules do not use that.
   */
  static Set<String> metricNames(String expr) {
    String text = STRING.matcher(expr).replaceAll("\"\"");
    text = MATCHERS.matcher(text).replaceAll(" ");
    text = RANGE.matcher(text).replaceAll(" ");
    text = LABEL_LIST.matcher(text).replaceAll(" ");
    Set<String> names = new TreeSet<>();
    Matcher m = IDENTIFIER.matcher(text);
    while (m.find()) {
      String word = m.group(1);
      if (m.group(2) == null && !KEYWORDS.contains(word.toLowerCase(java.util.Locale.ROOT))) {
        names.add(word);
      }
    }
    return names;
  }
}
