package io.varve.bench.report;

import io.varve.bench.cost.CostTable;
import io.varve.bench.result.CapacitySummary;
import io.varve.bench.result.HistogramCodec;
import io.varve.bench.result.LatencySummary;
import io.varve.bench.result.OperationResult;
import io.varve.bench.result.RunResult;
import io.varve.bench.result.SecondResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.TreeSet;
import org.HdrHistogram.Histogram;

/**
 * A self-contained HTML report of one or more runs side by side: a summary table, throughput over
 * time, p99 over time per operation, and percentile curves per operation. Runs keep one colour
 * throughout; solid lines are latency from the intended start, dashed lines raw service time.
 */
public final class HtmlReport {
  /** Run colours, in order; chosen to stay distinct for colour-blind readers. */
  static final List<String> COLORS =
      List.of("#0072b2", "#d55e00", "#009e73", "#cc79a7", "#e69f00", "#56b4e9", "#000000");

  private static final double[] PERCENTILES = {
    0, 10, 20, 30, 40, 50, 60, 70, 80, 90, 95, 97, 98, 99, 99.5, 99.7, 99.9, 99.95, 99.97, 99.99,
    99.995, 99.999
  };

  private HtmlReport() {}

  /** Writes the report of the given runs to a file. */
  public static void write(Path file, List<RunResult> runs) throws IOException {
    write(file, runs, List.of(), null);
  }

  /**
   * Writes the report of runs, capacity searches (their steps) and a cost table ({@code null}:
   * none).
   */
  public static void write(
      Path file, List<RunResult> runs, List<CapacitySummary> searches, CostTable cost)
      throws IOException {
    Path parent = file.toAbsolutePath().getParent();
    Files.createDirectories(parent);
    Files.writeString(file, render(runs, searches, cost), StandardCharsets.UTF_8);
  }

  /** The report's HTML. */
  public static String render(List<RunResult> runs) {
    return render(runs, List.of(), null);
  }

  /** The report's HTML, with the capacity searches' steps and the cost table when given. */
  public static String render(
      List<RunResult> runs, List<CapacitySummary> searches, CostTable cost) {
    StringBuilder html = new StringBuilder();
    html.append(
            "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>Varve bench report</title><style>")
        .append(
            "body{font-family:system-ui,sans-serif;margin:24px;color:#222}table{border-collapse:collapse;margin:12px 0}")
        .append(
            "td,th{border:1px solid #ccc;padding:3px 6px;text-align:right;white-space:nowrap;font-size:13px}th{background:#f3f3f3}td.l,th.l{text-align:left}")
        .append(
            ".swatch{display:inline-block;width:12px;height:12px;margin-right:6px;vertical-align:middle}")
        .append(
            "svg.chart{display:block;margin:8px 0 20px}svg .title{font-weight:600;font-size:14px}")
        .append(
            "svg .tick{font-size:11px;fill:#555}svg .axis{font-size:12px}svg .grid{stroke:#e5e5e5}")
        .append("svg .plot{fill:#fff;stroke:#999}</style></head><body>");
    html.append("<h1>Varve bench report</h1>");
    html.append(
            "<p>Solid lines: latency from the intended start time (corrected for coordinated omission). ")
        .append("Dashed lines: raw service time. Percentiles come from full HdrHistograms. ")
        .append(
            "Charts over time include a run's warm-up; the tables and percentile curves leave it out.</p>");
    if (cost != null) {
      ReportSections.cost(html, cost);
    }
    for (CapacitySummary search : searches) {
      ReportSections.capacity(html, search);
    }
    if (runs.isEmpty()) {
      html.append("</body></html>\n");
      return html.toString();
    }
    summaryTable(html, runs);
    ReportSections.load(html, runs);
    html.append("<h2>Throughput over time</h2>");
    SvgLineChart throughput =
        new SvgLineChart("Successful operations per second", "seconds since start", "ops/s");
    for (int i = 0; i < runs.size(); i++) {
      RunResult run = runs.get(i);
      List<double[]> points = new ArrayList<>();
      long first = firstSecond(run);
      for (SecondResult s : run.timeline()) {
        points.add(new double[] {s.epochSecond() - first, s.count()});
      }
      throughput.add(new SvgLineChart.Series(run.label(), color(i), false, points));
    }
    html.append(throughput.render());
    for (String op : operations(runs)) {
      html.append("<h2>").append(Html.escape(op)).append("</h2>");
      SvgLineChart p99 =
          new SvgLineChart(op + ": p99 latency per second", "seconds since start", "ms");
      SvgLineChart curve =
          new SvgLineChart(op + ": latency by percentile", "percentile", "ms")
              .logX(x -> percentileLabel(x));
      for (int i = 0; i < runs.size(); i++) {
        RunResult run = runs.get(i);
        OperationResult result = run.operations().get(op);
        if (result == null) {
          continue;
        }
        List<double[]> intended = new ArrayList<>();
        List<double[]> service = new ArrayList<>();
        long first = firstSecond(run);
        for (SecondResult s : run.timeline()) {
          SecondResult.Op o = s.operations().get(op);
          if (o != null && o.count() > 0) {
            intended.add(new double[] {s.epochSecond() - first, o.p99IntendedUs() / 1000.0});
            service.add(new double[] {s.epochSecond() - first, o.p99ServiceUs() / 1000.0});
          }
        }
        p99.add(new SvgLineChart.Series(run.label() + " intended", color(i), false, intended));
        p99.add(new SvgLineChart.Series(run.label() + " service", color(i), true, service));
        curve.add(
            new SvgLineChart.Series(
                run.label() + " intended",
                color(i),
                false,
                percentileCurve(
                    HistogramCodec.decode(op + ".intendedHistogram", result.intendedHistogram()))));
        curve.add(
            new SvgLineChart.Series(
                run.label() + " service",
                color(i),
                true,
                percentileCurve(
                    HistogramCodec.decode(op + ".serviceHistogram", result.serviceHistogram()))));
      }
      html.append(p99.render()).append(curve.render());
    }
    html.append("<h2>Run properties</h2>");
    for (int i = 0; i < runs.size(); i++) {
      RunResult run = runs.get(i);
      html.append("<details><summary>")
          .append(swatch(i))
          .append(Html.escape(run.label()))
          .append("</summary><table>");
      run.properties()
          .forEach(
              (k, v) ->
                  html.append("<tr><td class=\"l\">")
                      .append(Html.escape(k))
                      .append("</td><td class=\"l\">")
                      .append(Html.escape(v))
                      .append("</td></tr>"));
      html.append("</table></details>");
    }
    html.append("</body></html>\n");
    return html.toString();
  }

  private static void summaryTable(StringBuilder html, List<RunResult> runs) {
    html.append(
            "<h2>Summary</h2><table><tr><th class=\"l\">run</th><th class=\"l\">binding</th><th class=\"l\">phase</th>")
        .append(
            "<th>measured from (UTC)</th><th>warm-up s</th><th>duration s</th><th>threads</th><th>target ops/s</th><th>loaders</th>")
        .append("<th>throughput ops/s</th><th>errors</th><th class=\"l\">counters</th></tr>");
    for (int i = 0; i < runs.size(); i++) {
      RunResult r = runs.get(i);
      html.append("<tr><td class=\"l\">")
          .append(swatch(i))
          .append(Html.escape(r.label()))
          .append("</td><td class=\"l\">")
          .append(Html.escape(r.binding()))
          .append("</td><td class=\"l\">")
          .append(Html.escape(r.phase()))
          .append("</td><td>")
          .append(Instant.ofEpochMilli(r.startedAtMs()).toString())
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%.1f", r.warmupMs() / 1000.0))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%.1f", r.durationMs() / 1000.0))
          .append("</td><td>")
          .append(r.threads())
          .append("</td><td>")
          .append(r.targetOpsPerSec() == 0 ? "unlimited" : String.valueOf(r.targetOpsPerSec()))
          .append("</td><td>")
          .append(r.loaders())
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%,.1f", r.throughput()))
          .append("</td><td>")
          .append(r.errorCount())
          .append("</td><td class=\"l\">")
          .append(Html.escape(r.counters().toString()))
          .append("</td></tr>");
    }
    html.append(
            "</table><table><tr><th class=\"l\">run</th><th class=\"l\">operation</th><th class=\"l\">latency</th>")
        .append(
            "<th>count</th><th>avg ms</th><th>p50 ms</th><th>p95 ms</th><th>p99 ms</th><th>p99.9 ms</th><th>max ms</th>")
        .append("<th class=\"l\">errors</th></tr>");
    for (int i = 0; i < runs.size(); i++) {
      RunResult r = runs.get(i);
      for (var entry : r.operations().entrySet()) {
        OperationResult op = entry.getValue();
        latencyRow(
            html,
            i,
            r.label(),
            entry.getKey(),
            "intended",
            op.count(),
            op.intended(),
            op.errors().toString());
        latencyRow(html, i, r.label(), entry.getKey(), "service", op.count(), op.service(), "");
      }
    }
    html.append("</table>");
  }

  private static void latencyRow(
      StringBuilder html,
      int run,
      String label,
      String op,
      String kind,
      long count,
      LatencySummary s,
      String errors) {
    html.append("<tr><td class=\"l\">")
        .append(swatch(run))
        .append(Html.escape(label))
        .append("</td><td class=\"l\">")
        .append(Html.escape(op))
        .append("</td><td class=\"l\">")
        .append(kind)
        .append("</td><td>")
        .append(count);
    for (double v :
        new double[] {s.avgUs(), s.p50Us(), s.p95Us(), s.p99Us(), s.p999Us(), s.maxUs()}) {
      html.append("</td><td>").append(String.format(Locale.ROOT, "%.3f", v / 1000.0));
    }
    html.append("</td><td class=\"l\">").append(Html.escape(errors)).append("</td></tr>");
  }

  private static List<double[]> percentileCurve(Histogram h) {
    List<double[]> points = new ArrayList<>();
    if (h.getTotalCount() == 0) {
      return points;
    }
    for (double p : PERCENTILES) {
      if (p > 0 && 1.0 / (1 - p / 100) > h.getTotalCount()) {
        break;
      }
      points.add(new double[] {Math.log10(1 / (1 - p / 100)), h.getValueAtPercentile(p) / 1000.0});
    }
    points.add(new double[] {points.get(points.size() - 1)[0] + 0.3, h.getMaxValue() / 1000.0});
    return points;
  }

  private static String percentileLabel(double log10) {
    double p = 100 * (1 - Math.pow(10, -log10));
    return SvgLineChart.trim(Math.round(p * 1000) / 1000.0) + "%";
  }

  private static Set<String> operations(List<RunResult> runs) {
    Set<String> ops = new TreeSet<>();
    runs.forEach(r -> ops.addAll(r.operations().keySet()));
    return ops;
  }

  static long firstSecond(RunResult run) {
    return (run.startedAtMs() - run.warmupMs()) / 1000;
  }

  static String color(int run) {
    return COLORS.get(run % COLORS.size());
  }

  static String swatch(int run) {
    return "<span class=\"swatch\" style=\"background:" + color(run) + "\"></span>";
  }
}
