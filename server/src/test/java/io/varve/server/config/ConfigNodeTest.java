package io.varve.server.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.varve.core.error.InvalidFieldException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

class ConfigNodeTest {

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  /** The section {@code a.b} of {@code b: {v: <value>}} read under a parent path {@code a}. */
  private static ConfigNode section(String value) {
    try {
      JsonNode root = YAML.readTree("b:\n  v: " + value + "\n");
      return new ConfigNode(root, "a").section("b");
    } catch (IOException e) {
      throw new IllegalArgumentException(e);
    }
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({
      "250ms, PT0.25S",
      "1ms,   PT0.001S",
      "30s,   PT30S",
      "5m,    PT5M",
      "36h,   PT36H",
      "15d,   PT360H",
      "' 7s ', PT7S"})
  void reads_durations_in_every_unit(String text, Duration expected) {
    assertThat(section(text).duration("v", Duration.ZERO)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(delimiter = '|', value = {"5", "0s", "00ms", "1.5s", "-1s", "5 s", "5sec", "5S", "PT5S", "s", "'[1s]'"})
  void refuses_durations_that_are_not_a_positive_integer_and_unit(String text) {
    assertThatThrownBy(() -> section(text).duration("v", Duration.ZERO))
        .isInstanceOfSatisfying(InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("a.b.v"))
        .hasMessageContaining("(expected: a positive duration of at most 10000 days such as 5s (units: ms, s, m, h, d))");
  }

  @Test
  void absent_and_null_keys_take_the_fallback() {
    ConfigNode node = section("~");

    assertThat(node.has("v")).isFalse();
    assertThat(node.duration("v", Duration.ofSeconds(3))).isEqualTo(Duration.ofSeconds(3));
    assertThat(node.integer("v", 7, 0, 10)).isEqualTo(7);
    assertThat(node.string("v", "x")).isEqualTo("x");
    assertThat(node.bool("v", true)).isTrue();
    assertThat(node.strings("v", List.of("d"))).containsExactly("d");
    assertThat(node.stringMap("v", Map.of("k", "v"))).containsExactly(Map.entry("k", "v"));
    assertThat(node.path("v")).isEmpty();
    assertThat(node.section("missing").only(Set.of()).integer("x", 1, 0, 2)).isEqualTo(1);
  }

  static Stream<Arguments> integers() {
    return Stream.of(
        Arguments.of("0", 0, null),
        Arguments.of("10", 10, null),
        Arguments.of("11", null, "a.b.v: 11 (expected: 0..10)"),
        Arguments.of("-1", null, "a.b.v: -1 (expected: 0..10)"),
        Arguments.of("2.5", null, "(expected: an integer in 0..10)"),
        Arguments.of("ten", null, "(expected: an integer in 0..10)"),
        Arguments.of("[1]", null, "(expected: an integer in 0..10)"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("integers")
  void reads_integers_within_bounds(String yaml, Integer expected, String error) {
    if (error == null) {
      assertThat(section(yaml).integer("v", -99, 0, 10)).isEqualTo(expected);
    } else {
      assertThatThrownBy(() -> section(yaml).integer("v", -99, 0, 10)).isInstanceOf(InvalidFieldException.class)
          .hasMessageContaining(error);
    }
  }

  @Test
  void refuses_unknown_keys_naming_the_full_key_and_the_known_ones() {
    assertThatThrownBy(() -> section("1").only(Set.of("w")))
        .isInstanceOfSatisfying(InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("a.b.v"))
        .hasMessage("a.b.v: unknown key (expected one of: w)");
  }

  @Test
  void names_keys_by_their_full_path() {
    ConfigNode root = new ConfigNode(null, "");

    assertThat(root.key("server")).isEqualTo("server");
    assertThat(root.section("server").section("tls").key("privateKey")).isEqualTo("server.tls.privateKey");
  }

  @Test
  void refuses_booleans_written_as_words() {
    assertThat(section("false").bool("v", true)).isFalse();
    assertThatThrownBy(() -> section("yes please").bool("v", true)).isInstanceOf(InvalidFieldException.class)
        .hasMessageStartingWith("a.b.v: ").hasMessageEndingWith("(expected: true or false)");
  }

  @Test
  void reads_lists_and_mappings_of_strings() {
    assertThat(section("[x, 'y:1']").strings("v", List.of())).containsExactly("x", "y:1");
    assertThat(section("{class: SimpleStrategy, replication_factor: 3}").stringMap("v", Map.of()))
        .containsExactly(Map.entry("class", "SimpleStrategy"), Map.entry("replication_factor", "3"));
    assertThatThrownBy(() -> section("{a: 1}").strings("v", List.of())).hasMessageContaining("a list of strings");
    assertThatThrownBy(() -> section("[a]").stringMap("v", Map.of())).hasMessageContaining("a mapping");
  }
}
