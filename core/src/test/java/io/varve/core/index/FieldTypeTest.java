package io.varve.core.index;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class FieldTypeTest {

  static Object parse(FieldType type, String text) {
    return type.parse(text.getBytes(StandardCharsets.UTF_8));
  }

  @Test
  void numbers_parse_in_their_range_only() {
    assertThat(parse(FieldType.INTEGER, "42")).isEqualTo(42);
    assertThat(parse(FieldType.INTEGER, " -7 ")).isEqualTo(-7);
    assertThat(parse(FieldType.INTEGER, "2147483648")).isNull();
    assertThat(parse(FieldType.LONG, "2147483648")).isEqualTo(2147483648L);
    assertThat(parse(FieldType.INTEGER, "4.2")).isNull();
    assertThat(parse(FieldType.DOUBLE, "4.2")).isEqualTo(4.2);
    assertThat(parse(FieldType.DOUBLE, "1e-3")).isEqualTo(0.001);
    assertThat(parse(FieldType.DOUBLE, "NaN")).isNull();
    assertThat(parse(FieldType.DOUBLE, "Infinity")).isNull();
    assertThat(parse(FieldType.DOUBLE, "1d")).isNull();
  }

  @Test
  void booleans_and_timestamps() {
    assertThat(parse(FieldType.BOOLEAN, "TRUE")).isEqualTo(true);
    assertThat(parse(FieldType.BOOLEAN, "false")).isEqualTo(false);
    assertThat(parse(FieldType.BOOLEAN, "yes")).isNull();
    assertThat(parse(FieldType.TIMESTAMP, "2024-10-02T00:00:00.000Z")).isEqualTo(1727827200000L);
    assertThat(parse(FieldType.TIMESTAMP, "1727827200000")).isEqualTo(1727827200000L);
    assertThat(parse(FieldType.TIMESTAMP, "2024-10-02")).isNull();
    assertThat(parse(FieldType.TIMESTAMP, "2024-10-02T05:30:00+05:30")).isEqualTo(1727827200000L);
    assertThat(parse(FieldType.TIMESTAMP, "2024-10-01T24:00:00Z")).as("hour 24").isNull();
    assertThat(parse(FieldType.TIMESTAMP, "2024-10-01T23:59:60Z")).as("a leap second").isNull();
    assertThat(parse(FieldType.TIMESTAMP, "2025-02-29T00:00:00Z")).as("no such day").isNull();
    assertThat(parse(FieldType.TIMESTAMP, "+12024-10-02T00:00:00Z"))
        .as("a five-digit year")
        .isNull();
    assertThat(FieldType.TIMESTAMP.render(1727827200000L)).isEqualTo("2024-10-02T00:00:00Z");
  }

  @Test
  void text_must_be_valid_utf8_and_keywords_bounded() {
    assertThat(FieldType.KEYWORD.parse(new byte[] {(byte) 0xC3, (byte) 0x28})).isNull();
    assertThat(FieldType.TEXT.parse(new byte[] {(byte) 0xFF})).isNull();
    assertThat(parse(FieldType.KEYWORD, "é".repeat(4095))).isNotNull();
    assertThat(parse(FieldType.KEYWORD, "x".repeat(FieldType.MAX_KEYWORD_BYTES + 1))).isNull();
    assertThat(parse(FieldType.TEXT, "x".repeat(FieldType.MAX_KEYWORD_BYTES + 1))).isNotNull();
  }
}
