package io.varve.reshaper.parquet;

import static io.varve.reshaper.parquet.TempParquetFiles.foreign;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Single values that cannot fill their column: refused with the field and the value named. */
class RefusalsTest {

  @TempDir Path dir;

  @Test
  void an_int64_beyond_the_range_of_an_int_column() throws Exception {
    assertRefused(
        "optional int64 v;",
        g -> g.add("v", 3_000_000_000L),
        DataTypes.INT,
        "v: INT64 3000000000 does not fit an int column (from -2147483648 to 2147483647)");
    assertRefused(
        "optional int32 v;",
        g -> g.add("v", 128),
        DataTypes.TINYINT,
        "v: INT32 128 does not fit a tinyint column (from -128 to 127)");
  }

  @Test
  void a_text_that_is_not_a_number() throws Exception {
    assertRefused(
        "optional binary v (STRING);",
        g -> g.add("v", "abc"),
        DataTypes.VARINT,
        "v: \"abc\" is not an integer");
    assertRefused(
        "optional binary v (STRING);",
        g -> g.add("v", "1.5.0"),
        DataTypes.DECIMAL,
        "v: \"1.5.0\" is not a decimal number");
  }

  @ParameterizedTest
  @ValueSource(
      strings = {"example.com", "localhost", "1.2.3", "1.2.3.256", "0x7f.0.0.1", "[::1]", "::1%1"})
  void a_host_name_or_malformed_address_is_refused_and_never_looked_up(String text)
      throws Exception {
    assertRefused(
        "optional binary v (STRING);",
        g -> g.add("v", text),
        DataTypes.INET,
        "v: \""
            + text
            + "\" is not an IPv4 or IPv6 address literal (host names are not looked up)");
  }

  @Test
  void a_uuid_of_another_version_in_a_timeuuid_column_or_not_in_canonical_form() throws Exception {
    assertRefused(
        "optional binary v (STRING);",
        g -> g.add("v", "123e4567-e89b-42d3-a456-426614174000"),
        DataTypes.TIMEUUID,
        "v: 123e4567-e89b-42d3-a456-426614174000 is a version-4 UUID;"
            + " a timeuuid column holds version-1 UUIDs only");
    assertRefused(
        "optional binary v (STRING);",
        g -> g.add("v", "123e4567e89b42d3a456426614174000"),
        DataTypes.UUID,
        "v: \"123e4567e89b42d3a456426614174000\" is not a UUID in its canonical form");
  }

  @Test
  void a_vector_of_another_dimension() throws Exception {
    assertRefused(
        "optional group v (LIST) { repeated group list { optional float element; } }",
        g -> {
          Group list = g.addGroup("v");
          list.addGroup("list").append("element", 1f);
          list.addGroup("list").append("element", 2f);
        },
        DataTypes.vectorOf(DataTypes.FLOAT, 3),
        "v: a list of 2 elements does not fit a vector<float, 3> column (3 elements)");
  }

  @Test
  void a_null_element_or_map_value_which_cql_collections_cannot_hold() throws Exception {
    assertRefused(
        "optional group v (LIST) { repeated group list { optional int32 element; } }",
        g -> {
          Group list = g.addGroup("v");
          list.addGroup("list").append("element", 1);
          list.addGroup("list");
        },
        DataTypes.listOf(DataTypes.INT),
        "v[1]: a null element, which a CQL collection cannot hold");
    assertRefused(
        "optional group v (MAP) { repeated group key_value {"
            + " required binary key (STRING); optional int32 value; } }",
        g -> g.addGroup("v").addGroup("key_value").append("key", "k"),
        DataTypes.mapOf(DataTypes.TEXT, DataTypes.INT),
        "v{0}: a null value, which a CQL map cannot hold");
  }

  @Test
  void a_nested_value_is_named_by_its_path() throws Exception {
    assertRefused(
        "optional group v (MAP) { repeated group key_value { required binary key (STRING);"
            + " optional group value (LIST) { repeated group list { optional int64 element; } } } }",
        g -> {
          Group list = g.addGroup("v").addGroup("key_value").append("key", "k").addGroup("value");
          list.addGroup("list").append("element", 1L);
          list.addGroup("list").append("element", Long.MAX_VALUE);
        },
        DataTypes.mapOf(DataTypes.TEXT, DataTypes.listOf(DataTypes.INT)),
        "v{0}.value[1]: INT64 9223372036854775807 does not fit an int column"
            + " (from -2147483648 to 2147483647)");
  }

  @Test
  void text_that_is_not_utf8_or_not_ascii_and_times_outside_the_day() throws Exception {
    assertRefused(
        "optional binary v (STRING);",
        g -> g.add("v", Binary.fromConstantByteArray(new byte[] {(byte) 0xc3, 0x28})),
        DataTypes.TEXT,
        "v: a STRING value that is not valid UTF-8");
    assertRefused(
        "optional binary v (STRING);",
        g -> g.add("v", "café"),
        DataTypes.ASCII,
        "v: \"café\" does not fit an ascii column: it is not ASCII");
    assertRefused(
        "optional int64 v;",
        g -> g.add("v", 86_400_000_000_000L),
        DataTypes.TIME,
        "v: INT64 86400000000000 is not a time of day");
  }

  @Test
  void a_field_that_does_not_fit_is_refused_by_read_too() throws Exception {
    assertRefused(
        "optional double v;",
        g -> g.add("v", 1.0),
        DataTypes.FLOAT,
        "field v: DOUBLE does not fit a float column");
  }

  private void assertRefused(String field, Consumer<Group> filler, DataType type, String message)
      throws Exception {
    List<Group> records = foreign(dir, field, filler);
    assertThat(records).hasSize(1);
    assertThatThrownBy(() -> ParquetColumns.read(records.get(0), 0, type))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(message);
  }
}
