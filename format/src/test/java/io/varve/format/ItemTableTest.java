package io.varve.format;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The name of a namespace's chunk table, which Cassandra bounds at 48 characters. */
class ItemTableTest {

  @Test
  void a_chunk_table_is_named_after_its_item_table_while_the_name_fits_48_characters() {
    assertThat(ItemTable.chunkTable("items")).isEqualTo("items_chunks");
    String longest = "t".repeat(48 - "_chunks".length());
    assertThat(ItemTable.chunkTable(longest)).isEqualTo(longest + "_chunks").hasSize(48);
  }

  @Test
  void a_longer_item_table_gets_a_name_of_48_characters_that_tells_it_from_its_neighbours() {
    String prefix = "a_long_item_table_name_of_a_team";
    assertThat(prefix).hasSize(32);
    String one = prefix + "_first_one";
    String other = prefix + "_other_one";

    String name = ItemTable.chunkTable(one);

    assertThat(name).hasSize(48).startsWith(prefix + "_").endsWith("_chunks").matches("[a-z0-9_]+");
    assertThat(ItemTable.chunkTable(one)).as("the same every time").isEqualTo(name);
    assertThat(ItemTable.chunkTable(other)).isNotEqualTo(name).startsWith(prefix + "_");
  }
}
