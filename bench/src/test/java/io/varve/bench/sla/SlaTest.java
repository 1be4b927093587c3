package io.varve.bench.sla;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.bench.Results;
import io.varve.bench.result.LatencyKind;
import io.varve.bench.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SlaTest {
  // 1000 reads over 1 s: intended latency i ms (p99 = 990 ms), service latency 1..1000 us (p99 =
  // 990 us).
  private final RunResult result =
      Results.result(
          "a",
          0,
          1000,
          "READ",
          Results.histogram(1000, i -> (i + 1) * 1000),
          Results.histogram(1000, i -> i + 1),
          Map.of("READ_TIMEOUT", 3L),
          List.of());

  @Test
  void parses_latency_units_into_microseconds() {
    assertThat(SlaClause.parse("read.p99<10ms").bound()).isEqualTo(10_000);
    assertThat(SlaClause.parse(" update.p99.9 <= 2s ").bound()).isEqualTo(2_000_000);
    assertThat(SlaClause.parse("read.max<500us").bound()).isEqualTo(500);
    assertThat(SlaClause.parse("throughput>=120000").bound()).isEqualTo(120_000);
  }

  @Test
  void each_clause_gets_a_verdict_and_the_overall_needs_all() {
    SlaVerdict verdict =
        Sla.parse("throughput>=900,read.p99<10ms,read.errors<=3")
            .check(result, LatencyKind.SERVICE);
    assertThat(verdict.clauses())
        .extracting(SlaVerdict.ClauseVerdict::met)
        .containsExactly(true, true, true);
    assertThat(verdict.met()).isTrue();

    SlaVerdict corrected =
        Sla.parse("throughput>=900,read.p99<10ms").check(result, LatencyKind.INTENDED);
    assertThat(corrected.clauses())
        .extracting(SlaVerdict.ClauseVerdict::met)
        .containsExactly(true, false);
    assertThat(corrected.clauses().get(1).actual()).isBetween(989_000.0, 991_000.0);
    assertThat(corrected.met()).isFalse();
  }

  @Test
  void throughput_below_the_bound_fails() {
    SlaVerdict verdict = Sla.parse("throughput>=1001").check(result, LatencyKind.INTENDED);
    assertThat(verdict.met()).isFalse();
    assertThat(verdict.clauses().get(0).actual()).isEqualTo(1000.0);
  }

  @Test
  void errors_are_counted() {
    assertThat(Sla.parse("errors<3").check(result, LatencyKind.INTENDED).met()).isFalse();
    assertThat(Sla.parse("errors<=3").check(result, LatencyKind.INTENDED).met()).isTrue();
    assertThat(Sla.parse("update.errors<1").check(result, LatencyKind.INTENDED).met()).isTrue();
  }

  @Test
  void a_latency_clause_on_an_operation_that_did_not_run_fails() {
    SlaVerdict verdict = Sla.parse("update.p99<10ms").check(result, LatencyKind.INTENDED);
    assertThat(verdict.met()).isFalse();
    assertThat(verdict.clauses().get(0).shown()).contains("no update operations");
  }

  @Test
  void prints_one_line_per_clause_and_the_overall_verdict() {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Sla.parse("throughput>=900,read.p99<10ms")
        .check(result, LatencyKind.INTENDED)
        .print(new PrintStream(bytes, true, StandardCharsets.UTF_8));
    assertThat(bytes.toString(StandardCharsets.UTF_8))
        .contains("[SLA], throughput>=900, PASS, 1000.0 ops/s")
        .contains("[SLA], read.p99<10ms, FAIL, 990")
        .contains("[SLA], OVERALL, FAIL");
  }

  @Test
  void bad_clauses_name_what_is_wrong() {
    assertThatThrownBy(() -> Sla.parse("read.p99<10"))
        .hasMessageContaining("read.p99<10")
        .hasMessageContaining("unit");
    assertThatThrownBy(() -> Sla.parse("read.p42<10ms")).hasMessageContaining("p42");
    assertThatThrownBy(() -> Sla.parse("throughput=10"))
        .hasMessageContaining("throughput=10")
        .hasMessageContaining("expected");
    assertThatThrownBy(() -> Sla.parse("throughput>=10ms")).hasMessageContaining("ms");
    assertThatThrownBy(() -> Sla.parse(" , ")).hasMessageContaining("no clause");
  }
}
