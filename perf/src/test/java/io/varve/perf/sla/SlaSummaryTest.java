package io.varve.perf.sla;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.bench.result.LatencySummary;
import io.varve.bench.result.OperationResult;
import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SlaSummaryTest {

  @TempDir Path out;

  @Test
  void prints_each_run_by_file_name_then_the_reports() throws Exception {
    Map<String, Long> counters = new LinkedHashMap<>();
    counters.put("throttled", 3L);
    counters.put("retried", 1L);
    ResultFiles.write(
        out.resolve("varve-uniform.json"),
        result(
            "varve-uniform",
            1497.5,
            Map.of(
                "UPDATE",
                operation(12_345, 2_875, Map.of()),
                "READ",
                operation(9_999, 1_000, Map.of("ERROR", 2L))),
            Map.of()));
    ResultFiles.write(
        out.resolve("dynamodb-uniform.json"),
        result(
            "dynamodb-uniform",
            120.49,
            Map.of("READ", operation(4_005, 3_000, Map.of())),
            counters));
    Files.writeString(
        out.resolve("varve-uniform.txt"),
        "[OVERALL], RunTime(ms), 30012\n"
            + "[SLA], read.p99<10ms, FAIL, 12.3ms\n[SLA], OVERALL, FAIL, latency from intended start\n");
    Files.writeString(out.resolve("report-uniform.html"), "<html></html>");
    Files.writeString(out.resolve("varve-uniform.log"), "");

    ByteArrayOutputStream text = new ByteArrayOutputStream();
    new SlaSummary(out)
        .print(new PrintStream(text, true, StandardCharsets.UTF_8), "throughput>=1425");

    assertThat(text.toString(StandardCharsets.UTF_8))
        .isEqualTo(
            String.join(
                "\n",
                "sla=throughput>=1425",
                "dynamodb-uniform.throughput=120",
                "dynamodb-uniform.read.p99_ms=4.00 dynamodb-uniform.read.service_p99_ms=3.00 dynamodb-uniform.read.errors=0",
                "dynamodb-uniform.counters={'throttled': 3, 'retried': 1}",
                "varve-uniform.throughput=1498",
                "varve-uniform.read.p99_ms=10.00 varve-uniform.read.service_p99_ms=1.00 varve-uniform.read.errors=2",
                "varve-uniform.update.p99_ms=12.35 varve-uniform.update.service_p99_ms=2.88 varve-uniform.update.errors=0",
                "varve-uniform.sla=FAIL",
                "report=" + out.resolve("report-uniform.html"),
                ""));
  }

  @Test
  void rounds_half_to_even_from_the_exact_binary_value() {
    assertThat(SlaSummary.decimals(1497.5, 0)).isEqualTo("1498");
    assertThat(SlaSummary.decimals(1496.5, 0)).isEqualTo("1496");
    assertThat(SlaSummary.decimals(0.125, 2)).isEqualTo("0.12");
    // 2.675 is 2.67499999... in binary (String.format would print 2.68)
    assertThat(SlaSummary.decimals(2.675, 2)).isEqualTo("2.67");
  }

  private static RunResult result(
      String label,
      double throughput,
      Map<String, OperationResult> operations,
      Map<String, Long> counters) {
    return new RunResult(
        RunResult.FORMAT,
        label,
        "varve",
        "run",
        "site.ycsb.workloads.CoreWorkload",
        Map.of(),
        16,
        1500,
        1,
        "host",
        0,
        30_000,
        throughput,
        operations,
        counters,
        List.of(),
        0);
  }

  private static OperationResult operation(
      long p99IntendedUs, long p99ServiceUs, Map<String, Long> errors) {
    return new OperationResult(
        100,
        errors,
        new LatencySummary(0, 0, 0, 0, p99IntendedUs, 0, 0),
        new LatencySummary(0, 0, 0, 0, p99ServiceUs, 0, 0),
        "",
        "");
  }
}
