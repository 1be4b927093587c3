package io.varve.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.DoubleFunction;

/**
 * A line chart drawn as inline SVG: no script and nothing fetched, so a report opens anywhere,
 * offline, and prints as it shows.
 */
final class SvgLineChart {
  static final int WIDTH = 860;
  static final int HEIGHT = 300;
  private static final int LEFT = 70;
  private static final int RIGHT = 20;
  private static final int TOP = 30;
  private static final int BOTTOM = 45;

  /** One line: its points, colour and whether it is dashed. */
  record Series(String name, String color, boolean dashed, List<double[]> points) {}

  private final String title;
  private final String xLabel;
  private final String yLabel;
  private final List<Series> series = new ArrayList<>();
  private boolean logX;
  private DoubleFunction<String> xTickFormat = v -> trim(v);

  SvgLineChart(String title, String xLabel, String yLabel) {
    this.title = title;
    this.xLabel = xLabel;
    this.yLabel = yLabel;
  }

  SvgLineChart add(Series s) {
    if (!s.points().isEmpty()) {
      series.add(s);
    }
    return this;
  }

  /** X values are given already transformed to log10 scale; ticks show {@code format(x)}. */
  SvgLineChart logX(DoubleFunction<String> format) {
    this.logX = true;
    this.xTickFormat = format;
    return this;
  }

  String render() {
    StringBuilder svg = new StringBuilder();
    svg.append(
        String.format(
            Locale.ROOT,
            "<svg class=\"chart\" xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">",
            WIDTH,
            HEIGHT,
            WIDTH,
            HEIGHT));
    svg.append("<title>").append(Html.escape(title)).append("</title>");
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%d\" y=\"18\" class=\"title\">%s</text>",
            LEFT,
            Html.escape(title)));
    if (series.isEmpty()) {
      svg.append(
          String.format(
              Locale.ROOT,
              "<text x=\"%d\" y=\"%d\">no data</text></svg>",
              WIDTH / 2 - 30,
              HEIGHT / 2));
      return svg.toString();
    }
    double minX = Double.MAX_VALUE;
    double maxX = -Double.MAX_VALUE;
    double maxY = 0;
    for (Series s : series) {
      for (double[] p : s.points()) {
        minX = Math.min(minX, p[0]);
        maxX = Math.max(maxX, p[0]);
        maxY = Math.max(maxY, p[1]);
      }
    }
    if (maxX <= minX) {
      maxX = minX + 1;
    }
    maxY = niceCeiling(maxY);
    double plotW = WIDTH - LEFT - RIGHT;
    double plotH = HEIGHT - TOP - BOTTOM;
    final double x0 = minX;
    final double xSpan = maxX - minX;
    final double yMax = maxY;
    DoubleFunction<Double> px = x -> LEFT + (x - x0) / xSpan * plotW;
    DoubleFunction<Double> py = y -> TOP + plotH - y / yMax * plotH;

    svg.append(
        String.format(
            Locale.ROOT,
            "<rect x=\"%d\" y=\"%d\" width=\"%.0f\" height=\"%.0f\" class=\"plot\"/>",
            LEFT,
            TOP,
            plotW,
            plotH));
    for (int i = 0; i <= 5; i++) {
      double y = yMax * i / 5;
      double yy = py.apply(y);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/><text x=\"%d\" y=\"%.1f\" class=\"tick\" text-anchor=\"end\">%s</text>",
              LEFT,
              yy,
              LEFT + plotW,
              yy,
              LEFT - 6,
              yy + 4,
              trim(y)));
    }
    List<Double> xTicks = new ArrayList<>();
    if (logX) {
      for (double t = Math.ceil(minX); t <= maxX + 1e-9; t++) {
        xTicks.add(t);
      }
    } else {
      double step = niceStep(xSpan / 8);
      for (double t = Math.ceil(minX / step) * step; t <= maxX + 1e-9; t += step) {
        xTicks.add(t);
      }
    }
    for (double t : xTicks) {
      double xx = px.apply(t);
      svg.append(
          String.format(
              Locale.ROOT,
              "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%.1f\" class=\"grid\"/><text x=\"%.1f\" y=\"%.1f\" class=\"tick\" text-anchor=\"middle\">%s</text>",
              xx,
              TOP,
              xx,
              TOP + plotH,
              xx,
              TOP + plotH + 16,
              Html.escape(xTickFormat.apply(t))));
    }
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"%.1f\" y=\"%d\" class=\"axis\" text-anchor=\"middle\">%s</text>",
            LEFT + plotW / 2,
            HEIGHT - 6,
            Html.escape(xLabel)));
    svg.append(
        String.format(
            Locale.ROOT,
            "<text x=\"14\" y=\"%.1f\" class=\"axis\" text-anchor=\"middle\" transform=\"rotate(-90 14 %.1f)\">%s</text>",
            TOP + plotH / 2,
            TOP + plotH / 2,
            Html.escape(yLabel)));
    for (Series s : series) {
      StringBuilder path = new StringBuilder();
      for (double[] p : s.points()) {
        path.append(path.isEmpty() ? "M" : " L")
            .append(String.format(Locale.ROOT, "%.1f %.1f", px.apply(p[0]), py.apply(p[1])));
      }
      svg.append(
          String.format(
              Locale.ROOT,
              "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"%s><title>%s</title></path>",
              path,
              s.color(),
              s.dashed() ? " stroke-dasharray=\"6 4\"" : "",
              Html.escape(s.name())));
      if (s.points().size() == 1) {
        double[] p = s.points().get(0);
        svg.append(
            String.format(
                Locale.ROOT,
                "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"4\" fill=\"%s\"/>",
                px.apply(p[0]),
                py.apply(p[1]),
                s.color()));
      }
    }
    svg.append("</svg>");
    return svg.toString();
  }

  private static double niceCeiling(double v) {
    if (v <= 0) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(v)));
    for (double m : new double[] {1, 1.2, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10}) {
      if (m * magnitude >= v) {
        return m * magnitude;
      }
    }
    return 10 * magnitude;
  }

  private static double niceStep(double raw) {
    if (raw <= 0) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 5, 10}) {
      if (m * magnitude >= raw) {
        return m * magnitude;
      }
    }
    return 10 * magnitude;
  }

  static String trim(double v) {
    if (Math.abs(v - Math.rint(v)) < 1e-9) {
      return String.format(Locale.ROOT, "%,.0f", v);
    }
    return String.format(Locale.ROOT, "%.2f", v).replaceAll("0+$", "");
  }
}
