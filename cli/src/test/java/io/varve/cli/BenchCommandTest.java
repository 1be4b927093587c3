package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code varve bench} as a user types it: YCSB's options, result files, SLA exit codes. */
class BenchCommandTest {
  @TempDir
  Path dir;
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();
  private final ByteArrayOutputStream err = new ByteArrayOutputStream();
  private PrintStream stdout;
  private PrintStream stderr;
  private Path workload;

  @BeforeEach
  void capture() throws Exception {
    stdout = System.out;
    stderr = System.err;
    System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
    System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
    workload = dir.resolve("workloada");
    Files.writeString(workload, """
        workload=site.ycsb.workloads.CoreWorkload
        recordcount=1000
        operationcount=1000
        readproportion=0.5
        updateproportion=0.5
        requestdistribution=zipfian
        """);
  }

  @AfterEach
  void restore() {
    System.setOut(stdout);
    System.setErr(stderr);
  }

  @Test
  void runsWithYcsbOptionsAndWritesTheResult() {
    Path result = dir.resolve("r.json");
    int code = VarveCli.run("bench", "run", "noop", "-P", workload.toString(), "-p", "operationcount=3000",
        "-threads", "3", "-target", "3000", "--result", result.toString(), "--sla", "throughput>=1000,read.p99<5s");
    assertThat(code).as(err.toString(StandardCharsets.UTF_8)).isZero();
    RunResult run = ResultFiles.read(result);
    assertThat(run.count()).isEqualTo(3000);
    assertThat(run.threads()).isEqualTo(3);
    assertThat(run.targetOpsPerSec()).isEqualTo(3000);
    assertThat(run.properties()).containsEntry("operationcount", "3000");
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("[OVERALL], Throughput(ops/sec)")
        .contains("[SLA], OVERALL, PASS");
  }

  @Test
  void aMissedSlaExitsWithThree() {
    int code = VarveCli.run("bench", "run", "noop", "-P", workload.toString(), "-target", "500",
        "--result", dir.resolve("r.json").toString(), "--sla", "throughput>=100000");
    assertThat(code).isEqualTo(3);
    assertThat(out.toString(StandardCharsets.UTF_8)).contains("[SLA], throughput>=100000, FAIL");
  }

  @Test
  void badInputIsAUsageErrorNamingIt() {
    assertThat(VarveCli.run("bench", "run", "noop", "-P", workload.toString(), "-p", "novalue")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("-p novalue").contains("NAME=VALUE");
    assertThat(VarveCli.run("bench", "run", "noop", "-P", dir.resolve("missing").toString())).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("cannot read the workload file");
    assertThat(VarveCli.run("bench", "run", "nosuchdb", "-P", workload.toString())).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("binding nosuchdb is not known");
    assertThat(VarveCli.run("bench", "run", "noop", "-P", workload.toString(), "--sla", "read.p99<5")).isEqualTo(2);
    assertThat(err.toString(StandardCharsets.UTF_8)).contains("read.p99<5");
  }

  @Test
  void mergesAndReports() {
    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.json");
    assertThat(VarveCli.run("bench", "run", "noop", "-P", workload.toString(), "--result", a.toString())).isZero();
    assertThat(VarveCli.run("bench", "run", "noop", "-P", workload.toString(), "--result", b.toString())).isZero();
    Path merged = dir.resolve("m.json");
    assertThat(VarveCli.run("bench", "merge", "-o", merged.toString(), a.toString(), b.toString())).isZero();
    assertThat(ResultFiles.read(merged).count()).isEqualTo(2000);
    assertThat(ResultFiles.read(merged).loaders()).isEqualTo(2);
    Path html = dir.resolve("report.html");
    assertThat(VarveCli.run("bench", "report", "-o", html.toString(), a.toString(), merged.toString())).isZero();
    assertThat(html).exists();
  }
}
