package io.varve.core.time;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class Rfc3339Test {

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource({
    "2024-10-03T21:24:23.988Z,          2024-10-03T21:24:23.988Z",
    "2024-10-03t21:24:23z,              2024-10-03T21:24:23Z",
    "2024-10-04T03:00:00+05:30,         2024-10-03T21:30:00Z",
    "2024-10-03T21:00:00-00:00,         2024-10-03T21:00:00Z",
    "2024-10-03T21:00:00+00:00,         2024-10-03T21:00:00Z",
    "2024-10-04T00:00:00+23:59,         2024-10-03T00:01:00Z",
    "2024-10-03T00:00:00-23:59,         2024-10-03T23:59:00Z",
    "2024-10-03T21:24:23.1Z,            2024-10-03T21:24:23.100Z",
    "2024-10-03T21:24:23.123456789Z,    2024-10-03T21:24:23.123456789Z",
    "2000-02-29T00:00:00Z,              2000-02-29T00:00:00Z",
    "0001-01-01T00:00:00Z,              0001-01-01T00:00:00Z",
    "9999-12-31T23:59:59.999999999Z,    9999-12-31T23:59:59.999999999Z"
  })
  void reads_every_valid_form(String text, Instant expected) {
    assertThat(Rfc3339.parse(text)).isEqualTo(expected);
  }

  @ParameterizedTest(name = "[{index}] {0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "2025-02-30T00:00:00Z       | day 30 does not exist in 2025-02, which has 28 days",
        "1900-02-29T00:00:00Z       | day 29 does not exist in 1900-02, which has 28 days",
        "2025-06-31T00:00:00Z       | day 31 does not exist in 2025-06, which has 30 days",
        "2025-12-00T00:00:00Z       | day 00 does not exist in 2025-12",
        "2025-13-01T00:00:00Z       | month 13 is out of range 01..12",
        "2025-01-01T24:00:00Z       | hour 24 is out of range 00..23",
        "2025-01-01T23:60:00Z       | minute 60 is out of range 00..59",
        "2025-06-30T23:59:60Z       | second 60 is out of range 00..59",
        "2025-01-01T00:00:00+25:00  | offset hour 25 is out of range 00..23",
        "2025-01-01T00:00:00+24:00  | offset hour 24 is out of range 00..23",
        "2025-01-01T00:00:00-01:99  | offset minute 99 is out of range 00..59",
        "2025-01-01T00:00:00.0000000001Z | fraction .0000000001 has more than 9 digits",
        "2025-01-01T00:00:00        | not of the form",
        "2025-01-01 00:00:00Z       | not of the form",
        "2025-01-01T00:00:00+05     | not of the form",
        "2025-01-01T00:00:00+0500   | not of the form",
        "12025-01-01T00:00:00Z      | not of the form",
        "-2025-01-01T00:00:00Z      | not of the form",
        "2025-01-01                 | not of the form",
        "1735689600000              | not of the form"
      })
  void refuses_what_does_not_exist_saying_why(String text, String problem) {
    assertThatThrownBy(() -> Rfc3339.parse(text))
        .isInstanceOf(Rfc3339.InvalidTimeException.class)
        .hasMessageContaining(problem);
  }

  @org.junit.jupiter.api.Test
  void refuses_a_long_text_without_reading_it() {
    assertThatThrownBy(() -> Rfc3339.parse("2025-01-01T00:00:00." + "1".repeat(10_000_000) + "Z"))
        .isInstanceOf(Rfc3339.InvalidTimeException.class)
        .hasMessageContaining("not of the form");
  }
}
