package io.varve.options;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class OptionValuesTest {

  private static final Options.Builder OPTIONS = Options.builder();
  static final Section SERVER = OPTIONS.section("server", "The endpoint.");
  static final Option<Integer> PORT =
      OPTIONS.option("server.port", Types.integer(0, 65535)).defaultValue(8080).doc("Port.");
  static final Section TLS = OPTIONS.optionalSection("server.tls", "TLS.");
  static final Option<String> CHAIN =
      OPTIONS.option("server.tls.chain", Types.string()).example("/c.pem").doc("Chain.");
  static final Option<String> PASSWORD =
      OPTIONS.option("server.password", Types.string()).secret().example("x").doc("Password.");
  static final Option<Integer> MAX_PAGE =
      OPTIONS
          .option("limits.maxPageSize", Types.integer(1, 1000))
          .defaultValue(1000)
          .doc("Largest page.");
  static final Option<Integer> PAGE =
      OPTIONS
          .option("limits.defaultPageSize", Types.integer(1, 1000))
          .defaultFrom(v -> Math.min(100, v.get(MAX_PAGE)), "`100` (or `maxPageSize` when smaller)")
          .atMost(MAX_PAGE)
          .doc("Default page.");
  static final Option<Duration> TIMEOUT =
      OPTIONS
          .option("limits.timeout", Types.duration())
          .defaultValue(Duration.ofSeconds(5))
          .doc("Timeout.");
  static final Option<Integer> CONNECTIONS =
      OPTIONS
          .option("connectMax", Types.integer(1, 10))
          .defaultValue(5)
          .alias("maxConnections")
          .doc("Connections.");
  static final Options ALL = OPTIONS.build();

  private static OptionValues tree(Object tree) {
    return OptionValues.fromTree(ALL, "", tree);
  }

  @Test
  void absent_keys_take_their_default_and_set_ones_their_value() {
    OptionValues values =
        tree(Map.of("server", Map.of("port", "9090", "tls", Map.of("chain", "/x.pem"))));

    assertThat(values.get(PORT)).isEqualTo(9090);
    assertThat(values.optional(CHAIN)).contains("/x.pem");
    assertThat(values.get(TIMEOUT)).isEqualTo(Duration.ofSeconds(5));
    assertThat(values.isSet(TIMEOUT)).isFalse();
    assertThat(values.optional(PASSWORD)).isEmpty();
    assertThat(OptionValues.defaults(ALL).get(PORT)).isEqualTo(8080);
  }

  @Test
  void an_option_without_a_default_is_read_with_optional() {
    assertThatThrownBy(() -> tree(null).get(CHAIN))
        .isInstanceOf(IllegalStateException.class)
        .hasMessageContaining("server.tls.chain has no default");
  }

  @Test
  void refuses_keys_the_registry_does_not_declare_naming_the_full_key_and_the_known_ones() {
    assertThatThrownBy(() -> tree(Map.of("server", Map.of("tls", Map.of("chian", "c")))))
        .isInstanceOfSatisfying(
            OptionException.class, e -> assertThat(e.key()).isEqualTo("server.tls.chian"))
        .hasMessage("server.tls.chian: unknown key (expected one of: chain)");
    assertThatThrownBy(() -> tree(Map.of("servr", 1)))
        .hasMessage("servr: unknown key (expected one of: server, limits, connectMax)");
  }

  @Test
  void refuses_a_section_that_is_not_a_mapping() {
    assertThatThrownBy(() -> tree(Map.of("server", 5)))
        .hasMessage("server: 5 (expected: a mapping)");
    assertThatThrownBy(() -> tree(List.of("a")))
        .hasMessage("(root): [\"a\"] (expected: a mapping)");
    assertThatThrownBy(() -> OptionValues.fromTree(ALL, "x[2]", "a"))
        .hasMessage("x[2]: \"a\" (expected: a mapping)");
  }

  @Test
  void names_keys_under_the_prefix_of_the_tree() {
    assertThatThrownBy(
            () -> OptionValues.fromTree(ALL, "entries[3]", Map.of("server", Map.of("port", -1))))
        .hasMessage("entries[3].server.port: -1 (expected: 0..65535)");
    assertThat(OptionValues.fromTree(ALL, "entries[3]", null).key(PORT))
        .isEqualTo("entries[3].server.port");
  }

  @Test
  void a_bound_set_by_another_option_is_resolved_when_read() {
    Map<String, Object> limits =
        Map.of("limits", Map.of("maxPageSize", 50, "defaultPageSize", 100));

    assertThatThrownBy(() -> tree(limits))
        .hasMessage("limits.defaultPageSize: 100 (expected: 1..50)");
    assertThat(tree(Map.of("limits", Map.of("maxPageSize", 50))).get(PAGE)).isEqualTo(50);
    assertThat(tree(null).get(PAGE)).isEqualTo(100);
    assertThat(PAGE.typeDoc()).isEqualTo("integer, 1..`maxPageSize`");
  }

  @Test
  void a_long_value_is_shown_shortened_in_characters_never_cutting_one() {
    String emoji = "\uD83D\uDE00";

    assertThat(new OptionException("server.name", emoji.repeat(81), "short").getMessage())
        .isEqualTo("server.name: " + emoji.repeat(77) + "... (expected: short)");
    assertThat(new OptionException("server.name", emoji.repeat(80), "short").getMessage())
        .isEqualTo("server.name: " + emoji.repeat(80) + " (expected: short)");
  }

  @Test
  void secrets_are_never_shown_in_errors() {
    assertThatThrownBy(() -> tree(Map.of("server", Map.of("password", List.of("hunter2")))))
        .hasMessage("server.password: (a secret, not shown) (expected: a string)");
  }

  @Test
  void properties_show_values_as_written_and_count_blank_ones_as_absent() {
    Properties p = new Properties();
    p.setProperty("server.port", " lots ");
    p.setProperty("limits.timeout", " ");
    p.setProperty("unrelated.property", "anything");

    assertThatThrownBy(() -> OptionValues.fromProperties(ALL, p))
        .hasMessage("server.port: lots (expected: an integer in 0..65535)");
    p.setProperty("server.port", "80");
    assertThat(OptionValues.fromProperties(ALL, p).get(PORT)).isEqualTo(80);
    assertThat(OptionValues.fromProperties(ALL, p).isSet(TIMEOUT)).isFalse();
  }

  @Test
  void an_alias_is_read_when_the_key_is_absent_and_errors_name_the_key_used() {
    Properties p = new Properties();
    p.setProperty("maxConnections", "7");
    assertThat(OptionValues.fromProperties(ALL, p).get(CONNECTIONS)).isEqualTo(7);

    p.setProperty("connectMax", "8");
    assertThat(OptionValues.fromProperties(ALL, p).get(CONNECTIONS)).isEqualTo(8);

    p.remove("connectMax");
    p.setProperty("maxConnections", "70");
    assertThatThrownBy(() -> OptionValues.fromProperties(ALL, p))
        .hasMessage("maxConnections: 70 (expected: 1..10)");
    assertThat(tree(Map.of("maxConnections", 3)).get(CONNECTIONS)).isEqualTo(3);
  }

  @Test
  void refuses_options_of_another_registry() {
    Option<String> other =
        Options.builder().option("x", Types.string()).defaultValue("y").doc("X.");

    assertThatThrownBy(() -> tree(null).get(other)).isInstanceOf(IllegalArgumentException.class);
  }

  @Test
  void a_key_cannot_be_declared_twice_nor_under_an_option() {
    Options.Builder twice = Options.builder();
    twice.option("a", Types.string()).defaultValue("x").doc("A.");
    twice.option("a", Types.string()).defaultValue("x").doc("A.");
    assertThatThrownBy(twice::build).hasMessageContaining("a is declared twice");

    Options.Builder under = Options.builder();
    under.option("a", Types.string()).defaultValue("x").doc("A.");
    under.option("a.b", Types.string()).defaultValue("x").doc("B.");
    assertThatThrownBy(under::build).hasMessageContaining("a.b is under the option a");
  }
}
