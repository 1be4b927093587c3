package io.varve.core.partitioning;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Instant;
import java.util.HashSet;
import java.util.Set;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class SliceTableNameTest {

  private static final Instant START = Instant.parse("2024-03-01T12:34:56Z");

  @ParameterizedTest(name = "{0} -> {2}")
  @CsvSource({
    "orders, 2024-03-01T12:34:56Z, orders_20240301123456",
    "a, 1970-01-01T00:00:00Z, a_19700101000000",
    "tracing_default, 2024-12-31T23:59:59.999Z, tracing_default_20241231235959",
    // exactly 32 characters: kept whole (32 + 1 + 14 = 47 characters)
    "abcdefghijklmnopqrstuvwxyz_12345, 2024-03-01T00:00:00Z, abcdefghijklmnopqrstuvwxyz_12345_20240301000000",
  })
  void names_short_namespace_then_utc_stamp_of_slice_start(
      String namespace, Instant start, String expected) {
    assertThat(SliceTableName.of(namespace, start)).isEqualTo(expected);
  }

  @Test
  void stamps_in_utc_whatever_the_default_time_zone() {
    TimeZone saved = TimeZone.getDefault();
    try {
      TimeZone.setDefault(TimeZone.getTimeZone("Asia/Kolkata")); // +05:30
      assertThat(SliceTableName.of("orders", START)).isEqualTo("orders_20240301123456");
      TimeZone.setDefault(TimeZone.getTimeZone("America/Los_Angeles"));
      assertThat(SliceTableName.of("orders", START)).isEqualTo("orders_20240301123456");
    } finally {
      TimeZone.setDefault(saved);
    }
  }

  @ParameterizedTest(name = "{0}")
  @CsvSource({
    // 40 characters; checksums are CRC-32C of the whole name, computed outside Java
    "a_very_long_namespace_name_for_orders_v1, a_very_long_namespace_na_e69761fe_20240301123456",
    "a_very_long_namespace_name_for_orders_v2, a_very_long_namespace_na_f5c7920a_20240301123456",
  })
  void cuts_long_namespace_to_24_chars_and_adds_checksum(String namespace, String expected) {
    assertThat(SliceTableName.of(namespace, START)).isEqualTo(expected).hasSize(48);
  }

  @ParameterizedTest(name = "{0} characters")
  @CsvSource({"1", "24", "31", "32", "33", "40", "47", "48"})
  void stays_within_cassandra_48_char_limit_and_is_a_valid_identifier(int length) {
    String namespace = "n" + "x".repeat(length - 1);

    String table = SliceTableName.of(namespace, START);

    assertThat(table)
        .hasSizeLessThanOrEqualTo(48)
        .matches("[a-z][a-z0-9_]{0,47}")
        .endsWith("_20240301123456");
  }

  @Test
  void keeps_names_unique_for_long_namespaces_sharing_a_24_char_prefix() {
    String prefix = "shared_prefix_of_24_char";
    assertThat(prefix).hasSize(24);
    Set<String> tables = new HashSet<>();
    int count = 0;
    for (int i = 0; i < 2000; i++) {
      String namespace = prefix + "_suffix_" + i; // 33+ characters, all cut to the same 24
      tables.add(SliceTableName.of(namespace, START));
      count++;
    }
    assertThat(tables)
        .hasSize(count)
        .allSatisfy(t -> assertThat(t).startsWith(prefix + "_").hasSize(48));
  }

  @Test
  void gives_consecutive_slices_distinct_names() {
    assertThat(SliceTableName.of("orders", Instant.parse("2024-03-01T00:00:00Z")))
        .isNotEqualTo(SliceTableName.of("orders", Instant.parse("2024-03-01T00:00:01Z")))
        .isNotEqualTo(SliceTableName.of("orders", Instant.parse("2024-03-02T00:00:00Z")));
  }

  @org.junit.jupiter.api.Test
  void a_repartitioned_table_is_named_by_its_settings_within_48_characters() {
    java.time.Instant start = java.time.Instant.parse("2026-11-28T00:00:00Z");
    String ns = "n".repeat(48);
    String a = SliceTableName.repartitioned(ns, start, 8, 600);
    org.assertj.core.api.Assertions.assertThat(a)
        .hasSize(47)
        .matches("[a-z][a-z0-9_]*")
        .isEqualTo(SliceTableName.repartitioned(ns, start, 8, 600))
        .isNotEqualTo(SliceTableName.repartitioned(ns, start, 8, 300))
        .isNotEqualTo(SliceTableName.repartitioned(ns, start, 4, 600))
        .isNotEqualTo(SliceTableName.of(ns, start));
    org.assertj.core.api.Assertions.assertThat(SliceTableName.repartitioned("short", start, 1, 60))
        .startsWith("short_")
        .contains("_20261128000000_");
  }
}
