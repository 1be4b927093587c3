package io.varve.perf;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Mistakes on the command line exit with status 2 before anything starts; help exits with 0. */
class PerfCliTest {

  @ParameterizedTest
  @ValueSource(
      strings = {
        "perf",
        "perf bogus",
        "perf ts --events 1",
        "perf ts --batch 0",
        "perf ts --reads many",
        "perf search --document-mode NONE",
        "perf search --clients 0",
        "perf search --queue-capacity 0",
        "perf migrate --rows many",
        "perf migrate --repeat 0",
        "perf migrate --repeat 100",
        "perf kv --duration 0",
        "perf kv --batch 1001",
        "perf kv --batch 100 --item-bytes 50000",
        "perf kv --fixed-fetch-rows 0",
        "perf kv --item-bytes 63",
        "perf dataplane --overload-seconds 0",
        "perf dataplane --delay-ms 200..50",
        "perf dataplane --delay-ms fifty",
        "perf dataplane --delay-percent 101",
        "perf sla --records 0",
        "perf sla --warmup -1",
        "perf sla --seconds 0",
        "perf sla --bogus 1",
        "perf capacity --threads 0",
        "perf capacity --seconds 0",
        "perf capacity --pricing /nonexistent/pricing.yaml"
      })
  void usage_errors_exit_2(String args) {
    assertThat(PerfCli.run(args.split(" "))).isEqualTo(2);
  }

  @org.junit.jupiter.api.Test
  void a_benchmark_that_cannot_reach_its_cassandra_exits_4() {
    assertThat(PerfCli.run("perf", "ts", "--cassandra", "127.0.0.1:1", "--warmup", "0"))
        .isEqualTo(4);
  }

  @org.junit.jupiter.api.Test
  void perf_without_a_benchmark_is_a_usage_error() {
    assertThat(PerfCli.run("perf")).isEqualTo(2);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "perf --help",
        "perf ts --help",
        "perf search --help",
        "perf kv --help",
        "perf dataplane --help",
        "perf migrate --help",
        "perf sla --help",
        "perf capacity --help"
      })
  void help_exits_0(String args) {
    assertThat(PerfCli.run(args.split(" "))).isZero();
  }
}
