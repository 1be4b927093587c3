package io.varve.cassandra.metadata;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import org.junit.jupiter.api.Test;

/** The replication options of created keyspaces, checked before any statement is built. */
class CqlSliceTablesTest {

  @Test
  void counts_become_numbers_and_the_strategy_class_is_kept() {
    assertThat(
            CqlSliceTables.replicationOptions(
                Map.of("class", "NetworkTopologyStrategy", "dc1", "3")))
        .containsExactlyInAnyOrderEntriesOf(Map.of("class", "NetworkTopologyStrategy", "dc1", 3));
  }

  @Test
  void a_bad_option_is_refused_naming_its_key_and_what_was_expected() {
    assertThatThrownBy(
            () ->
                CqlSliceTables.replicationOptions(
                    Map.of("class", "SimpleStrategy", "replication_factor", "three")))
        .hasMessage("cassandra.replication.replication_factor: three (expected: a replica count)");
    assertThatThrownBy(() -> CqlSliceTables.replicationOptions(Map.of("dc1", "3")))
        .hasMessage("cassandra.replication.class: missing (expected: a strategy class)");
    assertThatThrownBy(() -> CqlSliceTables.replicationOptions(Map.of("class", "Simple'; DROP")))
        .hasMessage("cassandra.replication.class: Simple'; DROP (expected: a strategy class)");
    assertThatThrownBy(
            () -> CqlSliceTables.replicationOptions(Map.of("class", "SimpleStrategy", "dc-1", "3")))
        .hasMessage("cassandra.replication: key dc-1 (expected: class or a data center name)");
  }
}
