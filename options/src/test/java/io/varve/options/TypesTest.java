package io.varve.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.math.BigInteger;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.MethodSource;

/** Each type read through a one-option registry, as a file would give the value. */
class TypesTest {

  private static <T> T read(ValueType<T> type, Object raw) {
    Options.Builder b = Options.builder();
    Option<T> option = b.option("a.v", type).example("x").doc("V.");
    return OptionValues.fromTree(b.build(), "", Map.of("a", Map.of("v", raw))).get(option);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({
    "250ms, PT0.25S",
    "1ms, PT0.001S",
    "30s, PT30S",
    "5m, PT5M",
    "36h, PT36H",
    "15d, PT360H",
    "' 7s ', PT7S"
  })
  void reads_durations_in_every_unit(String text, Duration expected) {
    assertThat(read(Types.duration(), text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "5",
        "0s",
        "00ms",
        "1.5s",
        "-1s",
        "5 s",
        "5sec",
        "5S",
        "PT5S",
        "s",
        "99999999999999999999s",
        "10001d"
      })
  void refuses_durations_that_are_not_a_positive_integer_and_unit(String text) {
    assertThatThrownBy(() -> read(Types.duration(), text))
        .hasMessage(
            "a.v: \""
                + text
                + "\" (expected: a positive duration of at most 10000 days such as 5s"
                + " (units: ms, s, m, h, d))");
    assertThatThrownBy(() -> read(Types.duration(), 5))
        .hasMessageStartingWith("a.v: 5 (expected: a positive");
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({"1500ms, 1500ms", "90s, 90s", "120s, 2m", "36h, 36h", "48h, 2d", "1s, 1s"})
  void writes_durations_in_the_largest_exact_unit(String text, String written) {
    assertThat(Types.duration().format(read(Types.duration(), text))).isEqualTo(written);
  }

  static Stream<Arguments> integers() {
    return Stream.of(
        Arguments.of(0, 0, null),
        Arguments.of(10, 10, null),
        Arguments.of("7", 7, null),
        Arguments.of(11, null, "a.v: 11 (expected: 0..10)"),
        Arguments.of(-1, null, "a.v: -1 (expected: 0..10)"),
        Arguments.of(99_999_999_999L, null, "a.v: 99999999999 (expected: 0..10)"),
        Arguments.of(2.5, null, "a.v: 2.5 (expected: an integer in 0..10)"),
        Arguments.of("ten", null, "a.v: \"ten\" (expected: an integer in 0..10)"),
        Arguments.of(true, null, "a.v: true (expected: an integer in 0..10)"),
        Arguments.of(List.of(1), null, "a.v: [1] (expected: an integer in 0..10)"),
        Arguments.of(
            new BigInteger("99999999999999999999"), null, "(expected: an integer in 0..10)"));
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @MethodSource("integers")
  void reads_integers_within_bounds(Object raw, Integer expected, String error) {
    if (error == null) {
      assertThat(read(Types.integer(0, 10), raw)).isEqualTo(expected);
    } else {
      assertThatThrownBy(() -> read(Types.integer(0, 10), raw))
          .isInstanceOf(OptionException.class)
          .hasMessageContaining(error);
    }
  }

  @Test
  void byte_counts_name_whole_mebibytes() {
    assertThat(Types.bytes(1, Integer.MAX_VALUE).note(33_554_432)).isEqualTo("32 MiB");
    assertThat(Types.bytes(1, Integer.MAX_VALUE).note(4096)).isEmpty();
    assertThat(Types.bytes(1, 2).describe()).isEqualTo("bytes, 1..2");
  }

  @Test
  void reads_booleans_and_refuses_other_words() {
    assertThat(read(Types.bool(), false)).isFalse();
    assertThat(read(Types.bool(), "TRUE")).isTrue();
    assertThatThrownBy(() -> read(Types.bool(), "yes please"))
        .hasMessage("a.v: \"yes please\" (expected: true or false)");
  }

  @Test
  void reads_strings_but_not_lists_or_mappings() {
    assertThat(read(Types.string(), 42)).isEqualTo("42");
    assertThatThrownBy(() -> read(Types.string(), List.of("a")))
        .hasMessage("a.v: [\"a\"] (expected: a string)");
    assertThatThrownBy(() -> read(Types.matching(Pattern.compile("[a-z]+"), "[a-z]+"), "Varve"))
        .hasMessage("a.v: \"Varve\" (expected: [a-z]+)");
  }

  @Test
  void reads_one_of_a_few_values() {
    assertThat(read(Types.oneOf("none", "lz4"), "lz4")).isEqualTo("lz4");
    assertThatThrownBy(() -> read(Types.oneOf("none", "lz4"), "LZ4"))
        .hasMessage("a.v: \"LZ4\" (expected: none or lz4)");
    assertThat(read(Types.oneOfIgnoringCase("ONE", "TWO", "ALL"), "all")).isEqualTo("ALL");
    assertThatThrownBy(() -> read(Types.oneOfIgnoringCase("ONE", "TWO", "ALL"), "x"))
        .hasMessage("a.v: \"x\" (expected: one of ONE, TWO, ALL)");
    assertThat(Types.oneOf("none", "lz4").describe()).isEqualTo("`none` or `lz4`");
  }

  @Test
  void reads_lists_and_mappings_of_strings_naming_the_element_at_fault() {
    assertThat(read(Types.strings(), List.of("x", "y:1"))).containsExactly("x", "y:1");
    assertThat(read(Types.stringMap(), Map.of("replication_factor", 3)))
        .containsEntry("replication_factor", "3");
    assertThatThrownBy(() -> read(Types.strings(), "x"))
        .hasMessage("a.v: \"x\" (expected: a list of strings)");
    assertThatThrownBy(() -> read(Types.strings(), java.util.Arrays.asList("ok", null)))
        .isInstanceOfSatisfying(OptionException.class, e -> assertThat(e.key()).isEqualTo("a.v[1]"))
        .hasMessage("a.v[1]: null (expected: a non-empty string)");
    assertThatThrownBy(() -> read(Types.stringMap(), List.of("a")))
        .hasMessageContaining("(expected: a mapping)");
  }

  @Test
  void writes_values_that_a_yaml_parser_reads_back_unchanged() {
    assertThat(Types.strings().format(List.of("127.0.0.1:9042"))).isEqualTo("[\"127.0.0.1:9042\"]");
    assertThat(Types.stringMap().format(Map.of("class", "SimpleStrategy")))
        .isEqualTo("{class: SimpleStrategy}");
    assertThat(Types.string().format("127.0.0.1")).isEqualTo("127.0.0.1");
    assertThat(Types.string().format("")).isEqualTo("\"\"");
    assertThat(Types.string().format("no")).isEqualTo("\"no\"");
    assertThat(Types.string().format("8080")).isEqualTo("\"8080\"");
  }

  @Test
  void reads_lists_of_mappings_with_their_own_options_without_showing_values() {
    Options.Builder entry = Options.builder();
    Option<String> name = entry.option("name", Types.string()).example("n").doc("Name.");
    ValueType<List<OptionValues>> type = Types.mappings(entry.build());

    assertThat(read(type, List.of(Map.of("name", "a"))))
        .singleElement()
        .satisfies(v -> assertThat(v.optional(name)).contains("a"));
    assertThatThrownBy(() -> read(type, "secret"))
        .hasMessage("a.v: a string (expected: a list of mappings)");
    assertThatThrownBy(() -> read(type, List.of("secret")))
        .hasMessage("a.v[0]: a string (expected: a mapping)");
    assertThatThrownBy(() -> read(type, List.of(Map.of("nmae", "a"))))
        .hasMessage("a.v[0].nmae: unknown key (expected one of: name)");
  }
}
