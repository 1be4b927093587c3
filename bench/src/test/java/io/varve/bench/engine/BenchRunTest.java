package io.varve.bench.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.bench.result.OperationResult;
import io.varve.bench.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class BenchRunTest {
  private final ByteArrayOutputStream out = new ByteArrayOutputStream();

  private static Properties workloadA() {
    Properties p = new Properties();
    p.setProperty("workload", "io.varve.bench.workload.SkewedCoreWorkload");
    p.setProperty("recordcount", "1000");
    p.setProperty("operationcount", "2000");
    p.setProperty("readproportion", "0.5");
    p.setProperty("updateproportion", "0.5");
    p.setProperty("measurementtype", "hdrhistogram");
    p.setProperty("measurement.interval", "both");
    p.setProperty("hdrhistogram.percentiles", "50,95,99,99.9");
    return p;
  }

  private RunResult run(String binding, BenchSpec.Phase phase, Properties p) {
    return new BenchRun(
            new BenchSpec(binding, phase, p, "test"),
            new PrintStream(out, true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
        .run();
  }

  @Test
  void runs_every_operation_and_prints_ycsb_output() {
    Properties p = workloadA();
    p.setProperty("threadcount", "4");
    RunResult result = run("noop", BenchSpec.Phase.RUN, p);

    assertThat(result.count()).isEqualTo(2000);
    assertThat(result.operations()).containsOnlyKeys("READ", "UPDATE");
    assertThat(result.operations().get("READ").count()).isBetween(850L, 1150L);
    assertThat(result.threads()).isEqualTo(4);
    assertThat(result.phase()).isEqualTo("run");
    String text = out.toString(StandardCharsets.UTF_8);
    assertThat(text)
        .contains("[OVERALL], Throughput(ops/sec), ")
        .contains("[READ], 99thPercentileLatency(us), ")
        .contains("[Intended-READ], 99thPercentileLatency(us), ")
        .contains("[UPDATE], Return=OK, ");
  }

  @Test
  void load_inserts_the_record_count() {
    RunResult result = run("noop", BenchSpec.Phase.LOAD, workloadA());
    assertThat(result.operations()).containsOnlyKeys("INSERT");
    assertThat(result.operations().get("INSERT").count()).isEqualTo(1000);
  }

  @Test
  void a_stall_shows_in_latency_from_the_intended_start_but_not_in_service_time() {
    StallingBinding.OPERATIONS.set(0);
    Properties p = workloadA();
    p.setProperty("operationcount", "1000");
    p.setProperty("target", "500");
    p.setProperty("threadcount", "1");
    RunResult result = run(StallingBinding.class.getName(), BenchSpec.Phase.RUN, p);

    OperationResult reads = result.operations().get("READ");
    OperationResult updates = result.operations().get("UPDATE");
    // One operation took 500 ms. At 500 ops/s the ~250 operations due during the stall were
    // sent late: measured from their intended start they waited up to 500 ms, so well over 1%
    // of them are slow, while their service time stayed tiny.
    assertThat(Math.max(reads.intended().p99Us(), updates.intended().p99Us()))
        .isGreaterThan(100_000);
    assertThat(Math.max(reads.service().p99Us(), updates.service().p99Us())).isLessThan(10_000);
    assertThat(Math.max(reads.service().maxUs(), updates.service().maxUs())).isGreaterThan(490_000);
    // Paced at 500 ops/s, 1,000 operations take about 2 s: the schedule catches up after the stall.
    assertThat(result.durationMs()).isBetween(1_900L, 3_000L);
    // Failures are counted by status and kept out of the latency histograms.
    assertThat(reads.errors()).containsKey("NOT_FOUND");
    assertThat(reads.count() + reads.errorCount() + updates.count() + updates.errorCount())
        .isEqualTo(1000);
    assertThat(result.timeline()).hasSizeGreaterThanOrEqualTo(2);
    assertThat(result.timeline().stream().mapToLong(s -> s.count()).sum())
        .isEqualTo(result.count());
  }

  @Test
  void the_warm_up_is_left_out_of_the_totals_but_shown_in_the_timeline() {
    Properties p = workloadA();
    p.setProperty("operationcount", "4000");
    p.setProperty("target", "1000");
    p.setProperty("warmuptime", "2");
    RunResult result = run("noop", BenchSpec.Phase.RUN, p);

    // Measuring starts at the first whole second after the 2 s warm-up: 2 to 3 s of the 4 s run.
    assertThat(result.warmupMs()).isBetween(2_000L, 3_000L);
    assertThat(result.count()).isBetween(900L, 2_100L);
    assertThat(result.throughput()).isBetween(800.0, 1_200.0);
    assertThat(result.timeline()).anyMatch(s -> s.warmup()).anyMatch(s -> !s.warmup());
    assertThat(result.timeline().stream().filter(s -> !s.warmup()).mapToLong(s -> s.count()).sum())
        .isEqualTo(result.count());
    assertThat(result.timeline().stream().mapToLong(s -> s.count()).sum()).isEqualTo(4000);
  }

  @Test
  void the_target_rate_is_held() {
    Properties p = workloadA();
    p.setProperty("operationcount", "1500");
    p.setProperty("target", "1000");
    p.setProperty("threadcount", "2");
    RunResult result = run("noop", BenchSpec.Phase.RUN, p);
    assertThat(result.throughput()).isBetween(850.0, 1_050.0);
  }

  @Test
  void bad_input_is_named() {
    Properties p = workloadA();
    p.setProperty("threadcount", "many");
    assertThatThrownBy(() -> run("noop", BenchSpec.Phase.RUN, p))
        .hasMessageContaining("threadcount=many");
    Properties q = workloadA();
    q.setProperty("workload", "no.such.Workload");
    assertThatThrownBy(() -> run("noop", BenchSpec.Phase.RUN, q))
        .hasMessageContaining("workload=no.such.Workload");
    assertThatThrownBy(() -> run("mongodb", BenchSpec.Phase.RUN, workloadA()))
        .hasMessageContaining("mongodb")
        .hasMessageContaining("cql");
    Properties r = workloadA();
    r.setProperty("operationcount", "0");
    assertThatThrownBy(() -> run("noop", BenchSpec.Phase.RUN, r)).hasMessageContaining("never end");
  }
}
