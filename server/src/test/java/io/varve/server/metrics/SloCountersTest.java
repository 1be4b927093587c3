package io.varve.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.core.kv.KvSlos;
import io.varve.core.slo.Slos;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SloCountersTest {

  final SimpleMeterRegistry registry = new SimpleMeterRegistry();

  /** "served": GetItems within 10 ms target, 100 ms max; every other namespace unknown. */
  final SloCounters counters =
      new SloCounters(
          registry,
          namespace ->
              namespace.equals("served")
                  ? Optional.of(
                      Slos.of(
                          KvSlos.CATALOG,
                          Map.of(
                              "GetItems",
                              new Slos.Given(
                                  true,
                                  Optional.of(Duration.ofMillis(10)),
                                  Optional.of(Duration.ofMillis(100)))),
                          "slos"))
                  : Optional.empty());

  double count(String namespace, String endpoint, String latency) {
    var counter =
        registry
            .find(SloCounters.NAME)
            .tags("namespace", namespace, "endpoint", endpoint, "latency", latency)
            .counter();
    return counter == null ? -1 : counter.count();
  }

  static long ms(long millis) {
    return Duration.ofMillis(millis).toNanos();
  }

  @Test
  void answers_count_within_target_over_target_or_over_max_of_the_namespaces_own_objectives() {
    counters.record("served", "GetItems", ms(10)); // at the target: within it
    counters.record("served", "GetItems", ms(3));
    counters.record("served", "GetItems", ms(11));
    counters.record("served", "GetItems", ms(100)); // at the max: over the target only
    counters.record("served", "GetItems", ms(101));

    assertThat(count("served", "GetItems", "within_target")).isEqualTo(2);
    assertThat(count("served", "GetItems", "over_target")).isEqualTo(2);
    assertThat(count("served", "GetItems", "over_max")).isEqualTo(1);
  }

  @Test
  void an_endpoint_at_its_default_objectives_has_its_three_series_from_its_first_answer() {
    counters.record("served", "PutItems", ms(1));

    assertThat(count("served", "PutItems", "within_target")).isEqualTo(1);
    assertThat(count("served", "PutItems", "over_target")).isZero();
    assertThat(count("served", "PutItems", "over_max")).isZero();
  }

  @Test
  void unknown_namespaces_and_endpoints_without_objectives_make_no_series() {
    counters.record("no_such_namespace", "GetItems", ms(1));
    counters.record("served", "Handshake", ms(1));

    assertThat(registry.find(SloCounters.NAME).counters()).isEmpty();
  }

  @Test
  void a_forgotten_namespace_loses_its_series() {
    counters.record("served", "GetItems", ms(1));
    counters.forget("served");

    assertThat(registry.find(SloCounters.NAME).counters()).isEmpty();
    counters.record("served", "GetItems", ms(1));
    assertThat(count("served", "GetItems", "within_target")).isEqualTo(1);
  }
}
