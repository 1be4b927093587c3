package io.varve.bench.report;

import io.varve.bench.cost.CostModel;
import io.varve.bench.cost.CostTable;
import io.varve.bench.load.LoaderCpu;
import io.varve.bench.result.CapacitySummary;
import io.varve.bench.result.RunResult;
import io.varve.bench.result.SecondResult;
import io.varve.bench.sla.Sla;
import io.varve.bench.sla.SlaClause;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.function.ToDoubleFunction;

/**
 * The report's sections beyond latency: a capacity search's steps, the cost table, and the load
 * sampled beside each run.
 */
final class ReportSections {

  private ReportSections() {}

  /** The cost table: each system's monthly and yearly cost, and its ratio to the cheapest. */
  static void cost(StringBuilder html, CostTable table) {
    html.append("<h2>Cost</h2><p>")
        .append(
            Html.escape(
                String.format(
                    Locale.ROOT,
                    "Every system priced to serve %,.0f ops/s, prices in %s%s.",
                    table.throughput(),
                    table.pricing().currency(),
                    table.pricing().source() == null
                        ? ""
                        : " from " + table.pricing().source() + dated(table))))
        .append("</p><table><tr><th class=\"l\">system</th><th class=\"l\">binding</th>")
        .append("<th>capacity ops/s</th><th class=\"l\">SLA</th><th>monthly</th><th>yearly</th>")
        .append("<th>× cheapest</th><th class=\"l\">sized as</th></tr>");
    Optional<CostModel.Cost> cheapest = table.cheapest();
    for (CostModel.Cost c : table.costs()) {
      html.append("<tr><td class=\"l\">")
          .append(Html.escape(c.system().name()))
          .append("</td><td class=\"l\">")
          .append(Html.escape(c.system().binding()))
          .append("</td><td>")
          .append(c.summary().capacityOpsPerSec())
          .append("</td><td class=\"l\">")
          .append(Html.escape(c.summary().sla()))
          .append("</td><td>")
          .append(c.priced() ? money(c.monthly()) : "-")
          .append("</td><td>")
          .append(c.priced() ? money(c.yearly()) : "-")
          .append("</td><td>")
          .append(
              c.priced() && cheapest.isPresent() && cheapest.get().yearly() > 0
                  ? String.format(Locale.ROOT, "%.2f", c.yearly() / cheapest.get().yearly())
                  : "-")
          .append("</td><td class=\"l\">")
          .append(
              Html.escape(
                  c.priced()
                      ? c.sizedAs()
                          + (c.upfront() > 0 ? ", " + money(c.upfront()) + " upfront" : "")
                      : "not priced: " + c.reason()))
          .append("</td></tr>");
    }
    html.append("</table>");
    for (String warning : table.warnings()) {
      html.append("<p>Note: ").append(Html.escape(warning)).append("</p>");
    }
  }

  /**
   * A capacity search: its steps (target, achieved, the highest p99, held) as a table, and two
   * charts over the target: the throughput achieved beside the target itself, and the p99 beside
   * the SLA's latency bounds.
   */
  static void capacity(StringBuilder html, CapacitySummary search) {
    html.append("<h2>Capacity: ")
        .append(Html.escape(search.label()))
        .append("</h2><p>")
        .append(
            Html.escape(
                String.format(
                    Locale.ROOT,
                    "Binding %s, SLA %s (%s latency), steps of %d s after %d s of warm-up, a step"
                        + " holds when the SLA is met and it reaches its target less %.0f %%."
                        + " Capacity: %,d ops/s%s.",
                    search.binding(),
                    search.sla(),
                    search.latency().toLowerCase(Locale.ROOT),
                    search.stepSeconds(),
                    search.warmupSeconds(),
                    search.tolerance() * 100,
                    search.capacityOpsPerSec(),
                    search.atMax() ? " (the SLA held at the highest target tried)" : "")))
        .append("</p><table><tr><th>step</th><th class=\"l\">phase</th><th>target ops/s</th>")
        .append("<th>achieved ops/s</th><th>highest p99 ms</th><th class=\"l\">verdict</th>")
        .append("<th class=\"l\">result file</th></tr>");
    for (CapacitySummary.Step step : search.steps()) {
      html.append("<tr><td>")
          .append(step.index())
          .append("</td><td class=\"l\">")
          .append(Html.escape(step.phase()))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%,d", step.target()))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%,.1f", step.throughput()))
          .append("</td><td>")
          .append(String.format(Locale.ROOT, "%.2f", step.p99Ms()))
          .append("</td><td class=\"l\">")
          .append(step.held() ? "HELD" : "FAILED")
          .append("</td><td class=\"l\">")
          .append(Html.escape(step.file()))
          .append("</td></tr>");
    }
    html.append("</table>");
    List<CapacitySummary.Step> byTarget = new ArrayList<>(search.steps());
    byTarget.sort(Comparator.comparingLong(CapacitySummary.Step::target));
    if (byTarget.isEmpty()) {
      return;
    }
    SvgLineChart achieved =
        new SvgLineChart("Throughput achieved at each target", "target ops/s", "ops/s");
    achieved.add(
        new SvgLineChart.Series(
            "achieved",
            HtmlReport.color(0),
            false,
            points(byTarget, CapacitySummary.Step::throughput)));
    achieved.add(
        new SvgLineChart.Series(
            "target", "#999999", true, points(byTarget, s -> (double) s.target())));
    SvgLineChart p99 = new SvgLineChart("Highest p99 at each target", "target ops/s", "ms");
    p99.add(
        new SvgLineChart.Series(
            "p99 (" + search.latency().toLowerCase(Locale.ROOT) + ")",
            HtmlReport.color(1),
            false,
            points(byTarget, CapacitySummary.Step::p99Ms)));
    for (SlaClause clause : latencyBounds(search.sla())) {
      double ms = clause.bound() / 1000.0;
      p99.add(
          new SvgLineChart.Series(
              "SLA " + clause.text(), "#d62728", true, points(byTarget, s -> ms)));
    }
    html.append("<p>Solid: what each step achieved; dashed grey: the target itself, which a step")
        .append(" that keeps up follows. Below, dashed red: each latency bound of the SLA.</p>")
        .append(achieved.render())
        .append(p99.render());
  }

  /**
   * What each run sampled beside its operations: a table of its figures over the measured part, and
   * charts over time of the CPU of the loader and the servers (in cores), the nodes' pending tasks
   * and DynamoDB's consumed units, when a run has them.
   */
  static void load(StringBuilder html, List<RunResult> runs) {
    if (runs.stream().allMatch(r -> r.load().isEmpty())) {
      return;
    }
    html.append("<h2>Load beside the operations</h2>")
        .append("<p>Sampled once a second (docs/bench.md#load): totals over the measured part,")
        .append(" levels as their mean and highest. CPU in milliseconds; in the charts, in cores")
        .append(" (CPU milliseconds per second over 1,000). The loader's ceiling is the noop")
        .append(" binding's throughput: a loader near it measured itself.</p>");
    html.append("<table><tr><th class=\"l\">run</th><th>loader CPU µs/op</th>")
        .append("<th class=\"l\">figures</th></tr>");
    for (int i = 0; i < runs.size(); i++) {
      RunResult r = runs.get(i);
      Double cpu = r.load().get(LoaderCpu.CPU_MS);
      html.append("<tr><td class=\"l\">")
          .append(HtmlReport.swatch(i))
          .append(Html.escape(r.label()))
          .append("</td><td>")
          .append(
              cpu == null || r.count() == 0
                  ? "-"
                  : String.format(Locale.ROOT, "%.1f", cpu * 1000 / r.count()))
          .append("</td><td class=\"l\">");
      Map<String, Double> figures = new TreeMap<>(r.load());
      figures.forEach(
          (name, value) ->
              html.append(Html.escape(name)).append(String.format(Locale.ROOT, "=%.1f ", value)));
      html.append("</td></tr>");
    }
    html.append("</table>");
    chart(
        html,
        runs,
        "CPU per second (cores)",
        "cores",
        Map.of(
            LoaderCpu.CPU_MS,
            "loader",
            "cql.cpu_ms",
            "Cassandra nodes",
            "varve_server.cpu_ms",
            "Varve server"),
        1000);
    chart(
        html,
        runs,
        "Tasks pending in the nodes' thread pools",
        "tasks",
        Map.of("cql.pending", "pending", "cql.blocked", "blocked"),
        1);
    chart(
        html,
        runs,
        "DynamoDB capacity units consumed per second",
        "units/s",
        Map.of(
            "binding.consumed_read_milliunits", "read",
            "binding.consumed_write_milliunits", "write"),
        1000);
  }

  private static void chart(
      StringBuilder html,
      List<RunResult> runs,
      String title,
      String unit,
      Map<String, String> names,
      double divisor) {
    SvgLineChart chart = new SvgLineChart(title, "seconds since start", unit);
    boolean any = false;
    for (int i = 0; i < runs.size(); i++) {
      RunResult run = runs.get(i);
      long first = HtmlReport.firstSecond(run);
      int style = 0;
      for (Map.Entry<String, String> name : new TreeMap<>(names).entrySet()) {
        List<double[]> points = new ArrayList<>();
        for (SecondResult s : run.timeline()) {
          Double v = s.load().get(name.getKey());
          if (v != null) {
            points.add(new double[] {s.epochSecond() - first, v / divisor});
          }
        }
        if (!points.isEmpty()) {
          any = true;
          chart.add(
              new SvgLineChart.Series(
                  run.label() + " " + name.getValue(), HtmlReport.color(i), style++ > 0, points));
        }
      }
    }
    if (any) {
      html.append(chart.render());
    }
  }

  private static List<double[]> points(
      List<CapacitySummary.Step> steps, ToDoubleFunction<CapacitySummary.Step> y) {
    List<double[]> points = new ArrayList<>();
    for (CapacitySummary.Step s : steps) {
      points.add(new double[] {s.target(), y.applyAsDouble(s)});
    }
    return points;
  }

  /** The SLA's latency clauses with an upper bound (read.p99<10ms), none when it does not parse. */
  private static List<SlaClause> latencyBounds(String sla) {
    if (sla == null) {
      return List.of();
    }
    try {
      return Sla.parse(sla).clauses().stream()
          .filter(c -> c.metric().contains(".") && !c.metric().endsWith(".errors"))
          .filter(c -> c.operator().startsWith("<"))
          .toList();
    } catch (RuntimeException e) {
      return List.of();
    }
  }

  private static String dated(CostTable table) {
    return table.pricing().date() == null ? "" : ", " + table.pricing().date();
  }

  private static String money(double amount) {
    return String.format(Locale.ROOT, "%,.2f", amount);
  }
}
