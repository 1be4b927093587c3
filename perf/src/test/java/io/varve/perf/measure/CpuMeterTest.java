package io.varve.perf.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;

class CpuMeterTest {

  @Test
  void reads_user_and_system_ticks_after_a_command_name_with_spaces_and_parentheses() {
    String stat =
        "4242 (C2 Compiler) x) S 1 4242 4242 0 -1 4194624 0 0 0 0 1234 56 0 0 20 0 1 0 100 0 0";
    assertThat(CpuMeter.ticks(stat)).hasValue(1290);
  }

  @Test
  void refuses_a_stat_line_it_cannot_read() {
    assertThat(CpuMeter.ticks("4242 no command name")).isEmpty();
    assertThat(CpuMeter.ticks("4242 (java) S 1 2 3")).isEmpty();
    assertThat(CpuMeter.ticks("4242 (java) S 1 4242 4242 0 -1 4194624 0 0 0 0 many 56 0 0"))
        .isEmpty();
  }

  @Test
  void splits_out_the_jit_compilers_share_of_a_process() {
    assumeTrue(Files.isDirectory(Path.of("/proc/self/task")), "needs /proc");
    CpuMeter meter = new CpuMeter().add("client", ProcessHandle.current().pid());
    Map<String, Duration> cpu = meter.sample();
    assertThat(cpu).containsKeys("client", "client_jit");
    // this JVM compiled the test framework before running the test
    assertThat(cpu.get("client_jit"))
        .isPositive()
        .isLessThanOrEqualTo(cpu.get("client").plusMillis(10));
  }

  @Test
  void the_jit_share_of_a_round_is_over_all_processes_together() {
    Map<String, Duration> used =
        Map.of(
            "server", Duration.ofSeconds(6),
            "server_jit", Duration.ofSeconds(3),
            "client", Duration.ofSeconds(2),
            "client_jit", Duration.ofSeconds(0),
            "cassandra", Duration.ofSeconds(12));
    // 3 s of compilers in 20 s of CPU: 15 %, not the server's own 50 %
    assertThat(CpuMeter.jitShare(used)).isEqualTo(0.15);
    assertThat(CpuMeter.seconds(used)).isEqualTo(20.0);
    assertThat(CpuMeter.jitShare(used)).isGreaterThan(CpuMeter.SETTLED_JIT_SHARE);
    assertThat(CpuMeter.jitShare(Map.of("server", Duration.ZERO))).isZero();
  }
}
