package io.varve.core.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import java.util.Locale;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullSource;
import org.junit.jupiter.params.provider.ValueSource;

class ConsistencyTest {

  @ParameterizedTest(name = "{0}")
  @CsvSource({"LOCAL, LOCAL", "local, LOCAL", "Global, GLOBAL", "GLOBAL, GLOBAL"})
  void parses_scope_in_any_case(String value, Consistency.Scope expected) {
    assertThat(Consistency.parseScope("consistencyScope", value)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({"EVENTUAL, EVENTUAL", "eventual, EVENTUAL", "Strong, STRONG"})
  void parses_target_in_any_case(String value, Consistency.Target expected) {
    assertThat(Consistency.parseTarget("consistencyTarget", value)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "\"{0}\"")
  @NullSource
  @ValueSource(strings = {"", "REGIONAL", "LOCAL_QUORUM", " local", "EVENTUAL"})
  void refuses_unknown_scope_naming_field_and_choices(String value) {
    assertThatThrownBy(() -> Consistency.parseScope("config.consistencyScope", value))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> assertThat(e.field()).isEqualTo("config.consistencyScope"))
        .hasMessage(
            "config.consistencyScope: "
                + (value == null ? "null" : "\"" + value + "\"")
                + " (expected: LOCAL or GLOBAL)");
  }

  @ParameterizedTest(name = "\"{0}\"")
  @NullSource
  @ValueSource(strings = {"", "QUORUM", "strong ", "LOCAL"})
  void refuses_unknown_target_naming_field_and_choices(String value) {
    assertThatThrownBy(() -> Consistency.parseTarget("config.consistencyTarget", value))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> assertThat(e.field()).isEqualTo("config.consistencyTarget"))
        .hasMessage(
            "config.consistencyTarget: "
                + (value == null ? "null" : "\"" + value + "\"")
                + " (expected: EVENTUAL or STRONG or READ_YOUR_WRITES)");
  }

  @Test
  void parses_the_same_under_a_turkish_default_locale() {
    Locale saved = Locale.getDefault();
    try {
      Locale.setDefault(Locale.forLanguageTag("tr-TR")); // where "i".toUpperCase() is "İ"
      assertThat(Consistency.parseScope("consistencyScope", "local"))
          .isEqualTo(Consistency.Scope.LOCAL);
      assertThat(Consistency.parseTarget("consistencyTarget", "eventual"))
          .isEqualTo(Consistency.Target.EVENTUAL);
    } finally {
      Locale.setDefault(saved);
    }
  }

  @Test
  void defaults_to_local_strong() {
    assertThat(Consistency.DEFAULT)
        .isEqualTo(new Consistency(Consistency.Scope.LOCAL, Consistency.Target.STRONG));
  }
}
