package io.varve.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.varve.bench.Results;
import io.varve.bench.cost.CostTable;
import io.varve.bench.cost.Pricing;
import io.varve.bench.result.CapacitySummary;
import io.varve.bench.result.RunResult;
import io.varve.bench.result.SecondResult;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import javax.imageio.ImageIO;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class HtmlReportTest {
  @TempDir Path dir;

  /** Two runs side by side: "cql" fast, "dynamodb" slow, 30 seconds each. */
  private static List<RunResult> runs() {
    List<Histogram> fastSeconds = new ArrayList<>();
    List<Histogram> slowSeconds = new ArrayList<>();
    for (int s = 0; s < 30; s++) {
      int second = s;
      fastSeconds.add(Results.histogram(1000, i -> 500 + i + second * 10));
      slowSeconds.add(Results.histogram(400, i -> 5_000 + i * 20));
    }
    return List.of(
        Results.result(
            "cql <uniform>",
            1_700_000_000_000L,
            30_000,
            "READ",
            Results.histogram(30_000, i -> 500 + i % 1000),
            Results.histogram(30_000, i -> 400 + i % 900),
            Map.of(),
            fastSeconds),
        Results.result(
            "dynamodb",
            1_700_000_100_000L,
            30_000,
            "READ",
            Results.histogram(12_000, i -> 5_000 + i),
            Results.histogram(12_000, i -> 4_000 + i),
            Map.of("THROTTLED", 12L),
            slowSeconds));
  }

  @Test
  void report_holds_the_summary_and_one_chart_per_figure() {
    String html = HtmlReport.render(runs());
    assertThat(html).startsWith("<!DOCTYPE html>").endsWith("</html>\n");
    // Labels are escaped.
    assertThat(html).contains("cql &lt;uniform&gt;").doesNotContain("cql <uniform>");
    // Throughput over time, p99 over time and percentile curve for READ.
    assertThat(html.split("<svg ", -1)).hasSize(4);
    assertThat(html)
        .contains("Successful operations per second")
        .contains("READ: p99 latency per second")
        .contains("READ: latency by percentile")
        .contains("99.9%");
    // Both runs' lines, solid (intended) and dashed (service), in their own colours.
    assertThat(html)
        .contains("stroke=\"" + HtmlReport.COLORS.get(0) + "\"")
        .contains("stroke=\"" + HtmlReport.COLORS.get(1) + "\"")
        .contains("stroke-dasharray");
    assertThat(html).contains("{THROTTLED=12}");
  }

  /** A search of three steps, the runs with load figures, and a cost table of two systems. */
  static String capacityReport() {
    CapacitySummary search =
        new CapacitySummary(
            CapacitySummary.FORMAT,
            "cql-run",
            "cql",
            "site.ycsb.workloads.CoreWorkload",
            Map.of("workload", "site.ycsb.workloads.CoreWorkload"),
            "read.p99<10ms",
            "INTENDED",
            2000,
            false,
            60,
            10,
            0.05,
            List.of(
                new CapacitySummary.Step(1, "ramp", 1000, 1000.2, true, 3.1, "step-01-1000.json"),
                new CapacitySummary.Step(2, "ramp", 2000, 1999.0, true, 6.5, "step-02-2000.json"),
                new CapacitySummary.Step(
                    3, "ramp", 4000, 2400.0, false, 480.0, "step-03-4000.json")),
            Map.of("READ", 60_000L, "UPDATE", 60_000L),
            Map.of());
    Pricing pricing =
        new Pricing(
            "USD",
            730,
            "hand",
            "2026-11-29",
            List.of(
                new Pricing.PricedSystem(
                    "three-nodes", "cql", new Pricing.Nodes("box", 1, 1, 3), 0, 0, 0),
                new Pricing.PricedSystem(
                    "six-nodes", "cql", new Pricing.Nodes("box", 2, 1, 3), 0, 0, 0)));
    CostTable cost = CostTable.of(pricing, List.of(search), Optional.of(6000.0));
    List<RunResult> runs = new ArrayList<>();
    for (RunResult r : runs()) {
      List<SecondResult> timeline = new ArrayList<>();
      for (SecondResult s : r.timeline()) {
        timeline.add(
            new SecondResult(
                s.epochSecond(),
                s.operations(),
                s.warmup(),
                Map.of("loader.cpu_ms", 350.0, "cql.cpu_ms", 1200.0, "cql.pending", 3.0)));
      }
      runs.add(
          new RunResult(
              r.format(),
              r.label(),
              r.binding(),
              r.phase(),
              r.workload(),
              r.properties(),
              r.threads(),
              r.targetOpsPerSec(),
              r.loaders(),
              r.host(),
              r.startedAtMs(),
              r.durationMs(),
              r.throughput(),
              r.operations(),
              r.counters(),
              timeline,
              r.warmupMs(),
              Map.of("loader.cpu_ms", 10_500.0, "cql.pending.max", 3.0)));
    }
    return HtmlReport.render(runs, List.of(search), cost);
  }

  @Test
  void a_capacity_search_its_cost_and_the_load_beside_the_runs_are_shown() {
    String html = capacityReport();
    // the steps, with the SLA's bound drawn beside their p99
    assertThat(html)
        .contains("Capacity: cql-run")
        .contains("Capacity: 2,000 ops/s")
        .contains("step-03-4000.json")
        .contains("FAILED")
        .contains("Throughput achieved at each target")
        .contains("Highest p99 at each target")
        .contains("SLA read.p99&lt;10ms");
    // three nodes of 2,000 ops/s at 1 an hour and at 2: the second costs twice the first
    assertThat(html)
        .contains("<h2>Cost</h2>")
        .contains("2,190.00")
        .contains("4,380.00")
        .contains("<td>2.00</td>")
        .contains("3 x box (2000 ops/s per node measured");
    // the load: the loader's CPU per operation (10.5 s over 30,000 reads) and the charts
    assertThat(html)
        .contains("Load beside the operations")
        .contains("<td>350.0</td>")
        .contains("CPU per second (cores)")
        .contains("Tasks pending in the nodes&#39; thread pools")
        .doesNotContain("DynamoDB capacity units consumed per second");
  }

  @Test
  void renders_in_headless_chromium() throws Exception {
    Path chromium = Path.of("/usr/bin/chromium");
    boolean required = "1".equals(System.getenv("VARVE_REQUIRE_CHROMIUM"));
    assumeTrue(
        required || Files.isExecutable(chromium),
        "chromium is not installed (CI installs it and requires this test)");
    Path report = dir.resolve("report.html");
    HtmlReport.write(report, runs());
    Path png = dir.resolve("report.png");
    Process p =
        new ProcessBuilder(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--window-size=1000,1700",
                "--screenshot=" + png,
                report.toUri().toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("chromium.log").toFile())
            .start();
    assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
    assertThat(p.exitValue())
        .as("chromium exit status; log: " + Files.readString(dir.resolve("chromium.log")))
        .isZero();

    BufferedImage image = ImageIO.read(png.toFile());
    assertThat(image.getWidth()).isEqualTo(1000);
    // The charts were drawn: many pixels in each run's colour.
    assertThat(pixels(image, HtmlReport.COLORS.get(0))).isGreaterThan(1_000);
    assertThat(pixels(image, HtmlReport.COLORS.get(1))).isGreaterThan(1_000);

    // the capacity report: its charts come first, the SLA's bound in its own red
    Path capacity = dir.resolve("capacity.html");
    Files.writeString(capacity, capacityReport());
    BufferedImage steps = screenshot(chromium, capacity);
    assertThat(pixels(steps, "#d62728")).as("the SLA line").isGreaterThan(300);
    assertThat(pixels(steps, HtmlReport.COLORS.get(0))).as("achieved").isGreaterThan(300);
  }

  private BufferedImage screenshot(Path chromium, Path page) throws Exception {
    Path png = dir.resolve(page.getFileName() + ".png");
    Process p =
        new ProcessBuilder(
                chromium.toString(),
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--window-size=1000,1700",
                "--screenshot=" + png,
                page.toUri().toString())
            .redirectErrorStream(true)
            .redirectOutput(dir.resolve("chromium2.log").toFile())
            .start();
    assertThat(p.waitFor(90, TimeUnit.SECONDS)).as("chromium finished").isTrue();
    assertThat(p.exitValue()).isZero();
    return ImageIO.read(png.toFile());
  }

  private static int pixels(BufferedImage image, String hex) {
    int rgb = Integer.parseInt(hex.substring(1), 16);
    int count = 0;
    for (int y = 0; y < image.getHeight(); y++) {
      for (int x = 0; x < image.getWidth(); x++) {
        int c = image.getRGB(x, y) & 0xffffff;
        if (Math.abs((c >> 16) - (rgb >> 16)) < 12
            && Math.abs(((c >> 8) & 0xff) - ((rgb >> 8) & 0xff)) < 12
            && Math.abs((c & 0xff) - (rgb & 0xff)) < 12) {
          count++;
        }
      }
    }
    return count;
  }
}
