package io.varve.bench.sla;

import io.varve.bench.result.LatencyKind;
import io.varve.bench.result.LatencySummary;
import io.varve.bench.result.OperationResult;
import io.varve.bench.result.RunResult;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One clause of an SLA, such as {@code throughput>=120000}, {@code read.p99<10ms} or {@code
 * errors<=0}.
 *
 * <p>Metrics: {@code throughput} (successful operations per second), {@code errors} (failed
 * operations of every type), {@code <op>.errors}, and {@code <op>.<statistic>} where op is read,
 * update, insert, scan or delete and statistic is avg, min, p50, p95, p99, p99.9 or max. Latency
 * values take a unit: us, ms or s. Operators: &lt;, &lt;=, &gt;, &gt;=.
 *
 * @param text the clause as written
 * @param metric the metric name, lower case
 * @param operator the comparison
 * @param bound the bound, in operations per second, operations or microseconds
 */
public record SlaClause(String text, String metric, String operator, double bound) {
  private static final Pattern CLAUSE =
      Pattern.compile(
          "\\s*([a-zA-Z][a-zA-Z0-9_.\\-]*?)\\s*(<=|>=|<|>)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([a-zA-Z/%]*)\\s*");

  /** Parses one clause; an error names the clause and what was expected. */
  public static SlaClause parse(String text) {
    Matcher m = CLAUSE.matcher(text);
    if (!m.matches()) {
      throw new SlaException(
          "SLA clause '"
              + text.trim()
              + "' is not valid: expected <metric><op><value>[unit], e.g. "
              + "throughput>=1000 or read.p99<10ms");
    }
    String metric = m.group(1).toLowerCase(Locale.ROOT);
    double value = Double.parseDouble(m.group(3));
    String unit = m.group(4).toLowerCase(Locale.ROOT);
    String clause = text.trim();
    if (metric.equals("throughput")) {
      if (!unit.isEmpty() && !unit.equals("ops/s")) {
        throw new SlaException(
            "SLA clause '" + clause + "': throughput takes no unit or ops/s, not '" + unit + "'");
      }
      return new SlaClause(clause, metric, m.group(2), value);
    }
    if (metric.equals("errors") || metric.endsWith(".errors")) {
      if (!unit.isEmpty()) {
        throw new SlaException(
            "SLA clause '" + clause + "': an error count takes no unit, not '" + unit + "'");
      }
      return new SlaClause(clause, metric, m.group(2), value);
    }
    int dot = metric.indexOf('.');
    String statistic = dot < 0 ? "" : metric.substring(dot + 1);
    if (dot < 1 || !LatencySummary.STATISTICS.contains(statistic)) {
      throw new SlaException(
          "SLA clause '"
              + clause
              + "': metric '"
              + metric
              + "' is not known: expected throughput, "
              + "errors, <op>.errors or <op>.<statistic> with statistic one of "
              + LatencySummary.STATISTICS);
    }
    double micros =
        switch (unit) {
          case "us" -> value;
          case "ms" -> value * 1_000;
          case "s" -> value * 1_000_000;
          default ->
              throw new SlaException(
                  "SLA clause '"
                      + clause
                      + "': a latency needs a unit us, ms or s"
                      + (unit.isEmpty() ? "" : ", not '" + unit + "'"));
        };
    return new SlaClause(clause, metric, m.group(2), micros);
  }

  /** Checks the clause against a result. */
  public SlaVerdict.ClauseVerdict check(RunResult result, LatencyKind latency) {
    Double actual = actual(result, latency);
    if (actual == null) {
      return new SlaVerdict.ClauseVerdict(
          this, false, Double.NaN, "no " + operation() + " operations were run");
    }
    boolean pass =
        switch (operator) {
          case "<" -> actual < bound;
          case "<=" -> actual <= bound;
          case ">" -> actual > bound;
          case ">=" -> actual >= bound;
          default -> throw new IllegalStateException(operator);
        };
    return new SlaVerdict.ClauseVerdict(this, pass, actual, format(actual));
  }

  private Double actual(RunResult result, LatencyKind latency) {
    if (metric.equals("throughput")) {
      return result.throughput();
    }
    if (metric.equals("errors")) {
      return (double) result.errorCount();
    }
    OperationResult op = result.operations().get(operation().toUpperCase(Locale.ROOT));
    if (op == null) {
      return metric.endsWith(".errors") ? 0.0 : null;
    }
    if (metric.endsWith(".errors")) {
      return (double) op.errorCount();
    }
    if (op.count() == 0) {
      return null;
    }
    return op.latency(latency).statistic(metric.substring(metric.indexOf('.') + 1));
  }

  private String operation() {
    int dot = metric.indexOf('.');
    return dot < 0 ? metric : metric.substring(0, dot);
  }

  private String format(double actual) {
    if (metric.equals("throughput")) {
      return String.format(Locale.ROOT, "%.1f ops/s", actual);
    }
    if (metric.endsWith("errors")) {
      return String.format(Locale.ROOT, "%.0f", actual);
    }
    return actual >= 1_000
        ? String.format(Locale.ROOT, "%.2f ms", actual / 1_000)
        : String.format(Locale.ROOT, "%.0f us", actual);
  }
}
