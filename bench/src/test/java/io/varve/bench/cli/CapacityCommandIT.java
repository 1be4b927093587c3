package io.varve.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.bench.result.CapacitySummary;
import io.varve.bench.result.ResultFiles;
import io.varve.command.ExitStatus;
import io.varve.command.ExitStatusMapper;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code bench capacity} on the {@code noop} binding in front of a modelled server whose limit is
 * known ({@code noop.capacity}): the search lands within 10 % of it, each step is a result file
 * that reads back, the search's summary prices through {@code bench cost}, and an SLA no rate meets
 * gives {@code capacity.ops_per_s=0} and status 1. Steps of three seconds: about half a minute.
 */
class CapacityCommandIT {

  @TempDir Path dir;

  record Run(int status, String out, String err) {}

  Run bench(String... args) throws Exception {
    Path workload =
        Files.writeString(
            dir.resolve("workload"),
            """
            workload=site.ycsb.workloads.CoreWorkload
            recordcount=1000
            readproportion=0.5
            updateproportion=0.5
            requestdistribution=uniform
            """);
    List<String> all =
        new ArrayList<>(List.of("capacity", "noop", "-P", workload.toString(), "-threads", "8"));
    all.addAll(List.of(args));
    return cli(all.toArray(String[]::new));
  }

  /** {@code varve bench} with these arguments, in this JVM, its output captured. */
  static Run cli(String... all) {
    PrintStream out = System.out;
    PrintStream err = System.err;
    ByteArrayOutputStream o = new ByteArrayOutputStream();
    ByteArrayOutputStream e = new ByteArrayOutputStream();
    System.setOut(new PrintStream(o, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(e, true, StandardCharsets.UTF_8));
    try {
      CommandLine cli = new CommandLine(new BenchCommand());
      cli.setPosixClusteredShortOptionsAllowed(false);
      int status =
          ExitStatusMapper.install(
                  cli,
                  "varve bench",
                  io.varve.bench.engine.BenchInputException.class,
                  io.varve.bench.result.ResultFileException.class)
              .execute(all);
      return new Run(
          status, o.toString(StandardCharsets.UTF_8), e.toString(StandardCharsets.UTF_8));
    } finally {
      System.setOut(out);
      System.setErr(err);
      out.print(o.toString(StandardCharsets.UTF_8));
      err.print(e.toString(StandardCharsets.UTF_8));
    }
  }

  static long capacity(String out) {
    Matcher m = Pattern.compile("(?m)^capacity\\.ops_per_s=(\\d+)$").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return Long.parseLong(m.group(1));
  }

  @Test
  void the_search_lands_within_ten_percent_of_a_known_limit() throws Exception {
    Path steps = dir.resolve("steps");
    Run run =
        bench(
            "-p",
            "noop.capacity=2000",
            // below the limit an operation waits for a few others at most; above it the queue
            // grows for the whole step and the throughput stays at the limit
            "--sla",
            "read.p99<100ms,update.p99<100ms",
            "--tolerance",
            "0.02",
            "--start",
            "1000",
            "--seconds",
            "2",
            "--warmup",
            "1",
            "--first-warmup",
            "1",
            "--result-dir",
            steps.toString());
    assertThat(run.status()).as(run.err()).isEqualTo(ExitStatus.OK.code());
    assertThat(capacity(run.out())).isBetween(1800L, 2200L);
    // the ramp, then the bisection, each step a result file that reads back with its target
    assertThat(run.out()).contains("step 1 ramp target=1000").contains(" bisect target=");
    try (Stream<Path> files = Files.list(steps)) {
      List<Path> all =
          files.filter(f -> f.getFileName().toString().startsWith("step-")).sorted().toList();
      assertThat(all).hasSizeGreaterThanOrEqualTo(4);
      assertThat(ResultFiles.read(all.get(0)).targetOpsPerSec()).isEqualTo(1000);
    }
    // the summary: every step, the capacity, and the mix that ran at it
    CapacitySummary summary = ResultFiles.readCapacity(steps);
    assertThat(summary.capacityOpsPerSec()).isEqualTo(capacity(run.out()));
    assertThat(summary.binding()).isEqualTo("noop");
    assertThat(summary.sla()).isEqualTo("read.p99<100ms,update.p99<100ms");
    assertThat(summary.steps()).hasSize(Integer.parseInt(value(run.out(), "capacity.steps")));
    assertThat(summary.steps())
        .filteredOn(CapacitySummary.Step::held)
        .extracting(CapacitySummary.Step::target)
        .contains(summary.capacityOpsPerSec());
    assertThat(summary.share("READ")).isBetween(0.4, 0.6);

    // priced at 5,000 ops/s: three nodes of the measured ~2,000 each, at 1 an hour
    Path pricing =
        Files.writeString(
            dir.resolve("pricing.yaml"),
            """
            currency: EUR
            systems:
              - name: three
                binding: noop
                nodes: {instance: box, pricePerHour: 1}
              - name: units
                binding: noop
                dynamodb: {mode: provisioned, writeUnitHour: 0.001, readUnitHour: 0.001}
              - name: elsewhere
                binding: cql
                nodes: {pricePerHour: 1}
            """);
    Run cost = cli("cost", "--pricing", pricing.toString(), "--ops", "5000", steps.toString());
    assertThat(cost.status()).as(cost.err()).isEqualTo(ExitStatus.OK.code());
    assertThat(cost.out())
        .contains("cost.monthly=2190.00 system=three yearly=26280.00")
        .contains("3 x box")
        .containsPattern("(?m)^cost\\.monthly=[0-9.]+ system=units ")
        .containsPattern("(?m)^cost\\.ratio=1\\.00 system=(three|units) cheapest=");
    assertThat(cost.err()).contains("system elsewhere is of binding cql").contains("not priced");
    // the same search twice is ambiguous; a throughput of nothing is refused
    Run twice = cli("cost", "--pricing", pricing.toString(), steps.toString(), steps.toString());
    assertThat(twice.status()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(twice.err()).contains("one search per binding");
    assertThat(cli("cost", "--pricing", pricing.toString(), "--ops", "0", steps.toString()).err())
        .contains("--ops: 0.0");
    // the report of the search with its cost table; a pricing file with nothing to price refused
    Path html = dir.resolve("report.html");
    Run report =
        cli(
            "report",
            "-o",
            html.toString(),
            "--capacity",
            steps.toString(),
            "--pricing",
            pricing.toString(),
            "--ops",
            "5000");
    assertThat(report.status()).as(report.err()).isEqualTo(ExitStatus.OK.code());
    assertThat(Files.readString(html))
        .contains("Capacity: noop-run")
        .contains("Highest p99 at each target")
        .contains("2,190.00");
    Run nothing = cli("report", "-o", html.toString(), "--pricing", pricing.toString());
    assertThat(nothing.status()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    Run notSummary =
        cli("cost", "--pricing", pricing.toString(), dir.resolve("workload").toString());
    assertThat(notSummary.status()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(notSummary.err()).contains("is not a valid capacity summary");
  }

  static String value(String out, String key) {
    Matcher m = Pattern.compile("(?m)^" + Pattern.quote(key) + "=(\\S+)").matcher(out);
    assertThat(m.find()).as(out).isTrue();
    return m.group(1);
  }

  @Test
  void an_sla_no_rate_meets_gives_zero_and_status_one() throws Exception {
    Run run =
        bench(
            "-p",
            "noop.capacity=100",
            "--sla",
            "read.p99<1ms",
            "--start",
            "400",
            "--min",
            "150",
            "--seconds",
            "2",
            "--warmup",
            "0",
            "--first-warmup",
            "0",
            "--result-dir",
            dir.resolve("none").toString());
    assertThat(run.status()).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(capacity(run.out())).isZero();
    // no rate to price at, and no nodes known to meet the SLA at any given rate
    Path pricing =
        Files.writeString(
            dir.resolve("pricing.yaml"),
            "currency: USD\nsystems:\n  - {name: n, binding: noop, nodes: {pricePerHour: 1}}\n");
    Run cost = cli("cost", "--pricing", pricing.toString(), dir.resolve("none").toString());
    assertThat(cost.status()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(cost.err()).contains("--ops: absent");
    Run at =
        cli(
            "cost",
            "--pricing",
            pricing.toString(),
            "--ops",
            "100",
            dir.resolve("none").toString());
    assertThat(at.status()).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(at.out())
        .contains("not priced: the SLA held at no rate")
        .doesNotContain("cost.monthly=");
  }

  @Test
  void options_the_search_owns_or_out_of_order_are_refused_naming_them() throws Exception {
    assertThat(bench("--sla", "read.p99<10ms", "-target", "100").err()).contains("-target: 100");
    assertThat(bench("-threads", "2").err()).contains("--sla");
    Run order = bench("--sla", "read.p99<10ms", "--start", "500", "--max", "100");
    assertThat(order.status()).isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(order.err()).contains("--start 500").contains("--max 100");
    assertThat(bench("--sla", "read.p99<10ms", "--tolerance", "1.5").err())
        .contains("--tolerance: 1.5");
    assertThat(bench("--sla", "read.p99<10ms", "--first-warmup", "-1").err())
        .contains("--first-warmup: -1");
  }
}
