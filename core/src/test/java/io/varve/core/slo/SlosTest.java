package io.varve.core.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvSlos;
import io.varve.core.namespace.TimeSeriesSlos;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class SlosTest {

  private static Slos.Given latency(String target, String max) {
    return new Slos.Given(
        true,
        Optional.ofNullable(target).map(Duration::parse),
        Optional.ofNullable(max).map(Duration::parse));
  }

  @Test
  void absent_objectives_take_the_group_defaults() {
    Slos slos = Slos.defaults(KvSlos.CATALOG);

    assertThat(slos.latency(KvSlos.GET_ITEMS)).isEqualTo(KvSlos.DEFAULT_READ);
    assertThat(slos.latency(KvSlos.SCAN_ITEMS)).isEqualTo(KvSlos.DEFAULT_READ);
    assertThat(slos.latency(KvSlos.PUT_ITEMS)).isEqualTo(KvSlos.DEFAULT_WRITE);
    assertThat(slos.byEndpoint()).hasSize(5);
  }

  @Test
  void an_endpoint_overrides_its_group_which_overrides_the_default() {
    Map<String, Slos.Given> given = new LinkedHashMap<>();
    given.put("read", latency("PT0.2S", "PT1S"));
    given.put("getitems", latency("PT0.01S", "PT0.05S"));

    Slos slos = Slos.of(KvSlos.CATALOG, given, "slos");

    assertThat(slos.latency(KvSlos.GET_ITEMS))
        .isEqualTo(new LatencySlo(Duration.ofMillis(10), Duration.ofMillis(50)));
    assertThat(slos.latency(KvSlos.SCAN_ITEMS))
        .isEqualTo(new LatencySlo(Duration.ofMillis(200), Duration.ofSeconds(1)));
    assertThat(slos.latency(KvSlos.DELETE_ITEMS)).isEqualTo(KvSlos.DEFAULT_WRITE);
  }

  @Test
  void an_endpoint_default_of_its_own_yields_to_what_a_namespace_sets_for_its_group() {
    Slos defaults = Slos.defaults(TimeSeriesSlos.CATALOG);
    Slos grouped =
        Slos.of(TimeSeriesSlos.CATALOG, Map.of("read", latency("PT0.1S", "PT0.3S")), "slos");

    assertThat(defaults.latency(TimeSeriesSlos.AGGREGATE))
        .isEqualTo(TimeSeriesSlos.DEFAULT_AGGREGATE);
    assertThat(defaults.latency(TimeSeriesSlos.READ)).isEqualTo(TimeSeriesSlos.DEFAULT_READ);
    assertThat(defaults.latency(TimeSeriesSlos.WRITE_SYNC)).isEqualTo(TimeSeriesSlos.DEFAULT_WRITE);
    assertThat(grouped.latency(TimeSeriesSlos.AGGREGATE))
        .isEqualTo(new LatencySlo(Duration.ofMillis(100), Duration.ofMillis(300)));
    assertThat(grouped.latency(TimeSeriesSlos.SEARCH))
        .isEqualTo(new LatencySlo(Duration.ofMillis(100), Duration.ofMillis(300)));
  }

  static Stream<Arguments> malformed() {
    return Stream.of(
        Arguments.of("Frobnicate", latency("PT0.1S", "PT1S"), "slos.Frobnicate", "GetItems"),
        Arguments.of(
            "GetItems",
            new Slos.Given(false, Optional.empty(), Optional.empty()),
            "slos.GetItems.latency",
            "missing"),
        Arguments.of("GetItems", latency(null, "PT1S"), "slos.GetItems.latency.target", "missing"),
        Arguments.of("GetItems", latency("PT0.1S", null), "slos.GetItems.latency.max", "missing"),
        Arguments.of(
            "GetItems", latency("PT2S", "PT1S"), "slos.GetItems.latency.target", "at most the max"),
        Arguments.of("GetItems", latency("PT0S", "PT1S"), "slos.GetItems.latency.target", "0.001s"),
        Arguments.of("write", latency("PT-1S", "PT1S"), "slos.write.latency.target", "positive"),
        Arguments.of("PutItems", latency("PT1S", "PT61S"), "slos.PutItems.latency.max", "60s"),
        Arguments.of(
            "ScanItems",
            latency("PT0.0001S", "PT0.0005S"),
            "slos.ScanItems.latency.max",
            "0.001s"));
  }

  @ParameterizedTest(name = "{2}")
  @MethodSource("malformed")
  void a_malformed_objective_is_refused_naming_its_field(
      String key, Slos.Given given, String field, String expected) {
    assertThatThrownBy(() -> Slos.of(KvSlos.CATALOG, Map.of(key, given), "slos"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> {
              assertThat(e.field()).isEqualTo(field);
              assertThat(e.getMessage()).contains(expected);
            });
  }

  @Test
  void one_endpoint_given_twice_in_two_cases_is_refused() {
    Map<String, Slos.Given> given = new LinkedHashMap<>();
    given.put("GetItems", latency("PT0.1S", "PT1S"));
    given.put("getItems", latency("PT0.2S", "PT1S"));

    assertThatThrownBy(() -> Slos.of(KvSlos.CATALOG, given, "slos"))
        .isInstanceOf(InvalidFieldException.class)
        .hasMessageContaining("given twice");
  }
}
