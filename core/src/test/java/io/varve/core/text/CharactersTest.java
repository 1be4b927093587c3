package io.varve.core.text;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CharactersTest {

  static final String EMOJI = "\uD83D\uDE00";

  @Test
  void counts_code_points_an_emoji_as_one_and_a_lone_surrogate_as_one() {
    assertThat(Characters.count("")).isZero();
    assertThat(Characters.count("abc")).isEqualTo(3);
    assertThat(Characters.count("é")).isEqualTo(1);
    assertThat(Characters.count(EMOJI.repeat(65))).isEqualTo(65);
    assertThat(Characters.count("a\uDFFF" + EMOJI)).isEqualTo(3);
  }

  @ParameterizedTest(name = "[{index}] {0} x {1}, at most {2}")
  @CsvSource({
    "a, 80, 80, 80",
    "a, 81, 80, 80",
    "a, 200, 80, 80",
    "e, 80, 80, 80",
    "e, 81, 80, 80",
    "e, 65, 80, 65",
    "e, 200, 10, 10",
    "a, 3, 3, 3",
    "a, 4, 3, 3"
  })
  void shortens_to_at_most_max_characters_never_cutting_one(
      String kind, int repeat, int max, int expectedCharacters) {
    String text = (kind.equals("e") ? EMOJI : kind).repeat(repeat);

    String shortened = Characters.shortened(text, max);

    assertThat(Characters.count(shortened)).isEqualTo(expectedCharacters);
    assertThat(shortened.codePoints().filter(c -> Character.getType(c) == Character.SURROGATE))
        .as("no half emoji")
        .isEmpty();
    if (Characters.count(text) <= max) {
      assertThat(shortened).isEqualTo(text);
    } else {
      assertThat(shortened).endsWith("...");
      assertThat(text).startsWith(shortened.substring(0, shortened.length() - 3));
    }
  }

  @Test
  void a_text_of_ascii_is_shortened_as_before_to_77_characters_and_dots() {
    assertThat(Characters.shortened("x".repeat(81), 80)).isEqualTo("x".repeat(77) + "...");
    assertThat(Characters.shortened(EMOJI.repeat(81), 80)).isEqualTo(EMOJI.repeat(77) + "...");
  }

  @Test
  void a_max_below_three_is_refused() {
    assertThatThrownBy(() -> Characters.shortened("abcd", 2))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("max: 2 (expected: at least 3)");
  }
}
