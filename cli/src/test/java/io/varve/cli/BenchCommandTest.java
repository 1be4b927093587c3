package io.varve.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.bench.result.ResultFiles;
import io.varve.bench.result.RunResult;
import io.varve.command.ExitStatus;
import io.varve.command.testing.StandardStreams;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/** {@code varve bench} as a user types it: YCSB's options, result files, exit statuses. */
class BenchCommandTest {
  @RegisterExtension final StandardStreams streams = new StandardStreams();
  @TempDir Path dir;
  private Path workload;

  @BeforeEach
  void writeWorkload() throws Exception {
    workload = dir.resolve("workloada");
    Files.writeString(
        workload,
        """
        workload=site.ycsb.workloads.CoreWorkload
        recordcount=1000
        operationcount=1000
        readproportion=0.5
        updateproportion=0.5
        requestdistribution=zipfian
        """);
  }

  @Test
  void runs_with_ycsb_options_and_writes_the_result() {
    Path result = dir.resolve("r.json");
    int code =
        VarveCli.run(
            "bench",
            "run",
            "noop",
            "-P",
            workload.toString(),
            "-p",
            "operationcount=3000",
            "-threads",
            "3",
            "-target",
            "3000",
            "--result",
            result.toString(),
            "--sla",
            "throughput>=1000,read.p99<5s");
    assertThat(code).as(streams.err()).isZero();
    RunResult run = ResultFiles.read(result);
    assertThat(run.count()).isEqualTo(3000);
    assertThat(run.threads()).isEqualTo(3);
    assertThat(run.targetOpsPerSec()).isEqualTo(3000);
    assertThat(run.properties()).containsEntry("operationcount", "3000");
    assertThat(streams.out())
        .contains("[OVERALL], Throughput(ops/sec)")
        .contains("[SLA], OVERALL, PASS");
  }

  @Test
  void a_missed_sla_completes_with_errors() {
    Path result = dir.resolve("r.json");
    int code =
        VarveCli.run(
            "bench",
            "run",
            "noop",
            "-P",
            workload.toString(),
            "-target",
            "500",
            "--result",
            result.toString(),
            "--sla",
            "throughput>=100000");
    assertThat(code).isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(streams.out()).contains("[SLA], throughput>=100000, FAIL");
    assertThat(VarveCli.run("bench", "check", "--sla", "throughput>=100000", result.toString()))
        .isEqualTo(ExitStatus.COMPLETED_WITH_ERRORS.code());
    assertThat(VarveCli.run("bench", "check", "--sla", "throughput>=1", result.toString()))
        .isEqualTo(ExitStatus.OK.code());
  }

  @Test
  void a_binding_that_cannot_start_is_a_fatal_error() {
    int code =
        VarveCli.run(
            "bench",
            "run",
            FailingBinding.class.getName(),
            "-P",
            workload.toString(),
            "--result",
            dir.resolve("r.json").toString());
    assertThat(code).isEqualTo(ExitStatus.ABORTED_FATAL_ERROR.code());
    assertThat(streams.err()).contains("failed to start").contains("no database here");
    assertThat(dir.resolve("r.json")).doesNotExist();
  }

  @Test
  void a_file_that_is_not_a_result_is_invalid_input() throws Exception {
    Path notAResult = Files.writeString(dir.resolve("notes.json"), "{\"hello\": 1}");
    assertThat(VarveCli.run("bench", "check", "--sla", "throughput>=1", notAResult.toString()))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(
            VarveCli.run(
                "bench",
                "report",
                "-o",
                dir.resolve("r.html").toString(),
                dir.resolve("missing.json").toString()))
        .isEqualTo(ExitStatus.INVALID_INPUT.code());
    assertThat(streams.err()).contains("notes.json").contains("missing.json");
  }

  /** A binding whose database cannot be reached. */
  public static final class FailingBinding extends site.ycsb.DB {
    @Override
    public void init() throws site.ycsb.DBException {
      throw new site.ycsb.DBException("no database here");
    }

    @Override
    public site.ycsb.Status read(
        String table,
        String key,
        java.util.Set<String> fields,
        java.util.Map<String, site.ycsb.ByteIterator> result) {
      return site.ycsb.Status.ERROR;
    }

    @Override
    public site.ycsb.Status scan(
        String table,
        String startkey,
        int recordcount,
        java.util.Set<String> fields,
        java.util.Vector<java.util.HashMap<String, site.ycsb.ByteIterator>> result) {
      return site.ycsb.Status.ERROR;
    }

    @Override
    public site.ycsb.Status update(
        String table, String key, java.util.Map<String, site.ycsb.ByteIterator> values) {
      return site.ycsb.Status.ERROR;
    }

    @Override
    public site.ycsb.Status insert(
        String table, String key, java.util.Map<String, site.ycsb.ByteIterator> values) {
      return site.ycsb.Status.ERROR;
    }

    @Override
    public site.ycsb.Status delete(String table, String key) {
      return site.ycsb.Status.ERROR;
    }
  }

  @Test
  void bad_input_is_invalid_input_naming_it() {
    assertThat(VarveCli.run("bench", "run", "noop", "-P", workload.toString(), "-p", "novalue"))
        .isEqualTo(2);
    assertThat(streams.err()).contains("-p novalue").contains("NAME=VALUE");
    assertThat(VarveCli.run("bench", "run", "noop", "-P", dir.resolve("missing").toString()))
        .isEqualTo(2);
    assertThat(streams.err()).contains("cannot read the workload file");
    assertThat(VarveCli.run("bench", "run", "nosuchdb", "-P", workload.toString())).isEqualTo(2);
    assertThat(streams.err()).contains("binding nosuchdb is not known");
    assertThat(
            VarveCli.run("bench", "run", "noop", "-P", workload.toString(), "--sla", "read.p99<5"))
        .isEqualTo(2);
    assertThat(streams.err()).contains("read.p99<5");
    assertThat(
            VarveCli.run(
                "bench", "run", "noop", "-P", workload.toString(), "-p", "threadcount=many"))
        .isEqualTo(2);
    assertThat(streams.err()).contains("property threadcount=many is not valid");
    assertThat(VarveCli.run("bench", "run", "noop")).isEqualTo(2);
    assertThat(streams.err()).contains("property workload is missing");
  }

  @Test
  void merges_and_reports() {
    Path a = dir.resolve("a.json");
    Path b = dir.resolve("b.json");
    assertThat(
            VarveCli.run(
                "bench", "run", "noop", "-P", workload.toString(), "--result", a.toString()))
        .isZero();
    assertThat(
            VarveCli.run(
                "bench", "run", "noop", "-P", workload.toString(), "--result", b.toString()))
        .isZero();
    Path merged = dir.resolve("m.json");
    assertThat(VarveCli.run("bench", "merge", "-o", merged.toString(), a.toString(), b.toString()))
        .isZero();
    assertThat(ResultFiles.read(merged).count()).isEqualTo(2000);
    assertThat(ResultFiles.read(merged).loaders()).isEqualTo(2);
    Path html = dir.resolve("report.html");
    assertThat(
            VarveCli.run("bench", "report", "-o", html.toString(), a.toString(), merged.toString()))
        .isZero();
    assertThat(html).exists();
  }
}
