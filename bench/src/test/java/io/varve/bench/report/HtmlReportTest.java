package io.varve.bench.report;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.varve.bench.Results;
import io.varve.bench.result.RunResult;
import java.awt.image.BufferedImage;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
