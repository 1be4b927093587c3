package io.varve.core.slo;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvSlos;
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
