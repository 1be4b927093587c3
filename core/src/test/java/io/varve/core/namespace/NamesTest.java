package io.varve.core.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

class NamesTest {

  /** 48 characters: the longest name allowed. */
  private static final String FORTY_EIGHT = "n12345678901234567890123456789012345678901234567";

  @ParameterizedTest
  @ValueSource(strings = {"a", "orders", "tracing_default", "a1_b2", "x_", "a0000000", FORTY_EIGHT})
  void accepts_lower_case_identifier_of_at_most_48_chars(String name) {
    assertThat(Names.namespace("namespace", name)).isEqualTo(name);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "A",
        "Orders",
        "1orders",
        "_orders",
        "or-ders",
        "or ders",
        "orders.v1",
        "café",
        "orders\n",
        " orders",
        FORTY_EIGHT + "b"
      })
  void refuses_namespace_outside_the_identifier_pattern(String name) {
    assertThatThrownBy(() -> Names.namespace("namespace", name))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("namespace"))
        .hasMessageStartingWith("namespace: \"")
        .hasMessageEndingWith(" (expected: [a-z][a-z0-9_]{0,47})");
  }

  @ParameterizedTest
  @NullAndEmptySource
  void refuses_missing_namespace(String name) {
    assertThatThrownBy(() -> Names.namespace("request.namespace", name))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("request.namespace"))
        .hasMessage("request.namespace: missing (expected: a namespace name [a-z][a-z0-9_]{0,47})");
  }

  @ParameterizedTest
  @ValueSource(strings = {"orders_ks", "varve_data", "mysystem", "sys", FORTY_EIGHT})
  void accepts_keyspace_of_its_own(String keyspace) {
    assertThat(Names.keyspace("dataset", keyspace, "varve_meta")).isEqualTo(keyspace);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "system",
        "system_auth",
        "system_schema",
        "system_traces",
        "system_distributed",
        "system_views",
        "system_virtual_schema",
        "varve_meta"
      })
  void refuses_cassandra_own_keyspaces_and_the_reserved_one(String keyspace) {
    assertThatThrownBy(() -> Names.keyspace("dataset", keyspace, "varve_meta"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("dataset"))
        .hasMessage(
            "dataset: \""
                + keyspace
                + "\" (expected: a keyspace not starting with 'system' and other than 'varve_meta')");
  }

  @ParameterizedTest
  @NullAndEmptySource
  @ValueSource(strings = {"Orders", "1ks", "ks-1", FORTY_EIGHT + "b"})
  void refuses_keyspace_outside_the_identifier_pattern(String keyspace) {
    assertThatThrownBy(() -> Names.keyspace("dataset", keyspace, "varve_meta"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("dataset"))
        .hasMessageEndingWith("(expected: [a-z][a-z0-9_]{0,47})");
  }
}
