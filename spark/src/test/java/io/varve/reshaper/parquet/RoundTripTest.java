package io.varve.reshaper.parquet;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.schema.MessageType;
import org.apache.parquet.schema.MessageTypeParser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every CQL type written with {@link RowWriteSupport} and read back with {@link ParquetColumns}.
 */
class RoundTripTest {

  @TempDir Path dir;

  static List<CqlCases> cases() {
    return CqlCases.all();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("cases")
  void each_value_reads_back_equal_and_encodes_to_the_same_bytes(CqlCases column) throws Exception {
    Path file = dir.resolve(column.name() + ".parquet");
    List<Object[]> rows = new ArrayList<>();
    column.values().forEach(value -> rows.add(new Object[] {value}));

    TempParquetFiles.writeRows(file, List.of(column.name()), List.of(column.type()), rows);
    List<Group> records = TempParquetFiles.readGroups(file);

    assertThat(records).hasSameSizeAs(column.values());
    for (int i = 0; i < records.size(); i++) {
      Object original = column.values().get(i);
      Object read = ParquetColumns.read(records.get(i), 0, column.type());
      assertThat(read).as("row %d", i).isEqualTo(original);
      assertThat(TempParquetFiles.encoded(column.type(), read))
          .as("row %d as the driver encodes it", i)
          .isEqualTo(TempParquetFiles.encoded(column.type(), original));
    }
  }

  @Test
  void a_table_of_every_type_is_written_in_the_documented_layout_and_reads_back() throws Exception {
    List<CqlCases> columns = CqlCases.all();
    List<String> names = columns.stream().map(CqlCases::name).toList();
    List<DataType> types = columns.stream().map(CqlCases::type).toList();
    Object[] values = columns.stream().map(c -> c.values().get(0)).toArray();
    Path file = dir.resolve("table.parquet");

    TempParquetFiles.writeRows(file, names, types, List.of(values, new Object[values.length]));

    assertThat(TempParquetFiles.footerSchema(file)).isEqualTo(EVERY_TYPE);
    assertThat(ParquetColumns.schema(names, types)).isEqualTo(EVERY_TYPE);
    List<Group> records = TempParquetFiles.readGroups(file);
    for (int i = 0; i < values.length; i++) {
      assertThat(ParquetColumns.read(records.get(0), i, types.get(i)))
          .as(names.get(i))
          .isEqualTo(values[i]);
      assertThat(ParquetColumns.read(records.get(1), i, types.get(i))).as(names.get(i)).isNull();
    }
  }

  @Test
  void a_custom_type_has_no_parquet_form() {
    DataType custom = DataTypes.custom("org.apache.cassandra.db.marshal.DynamicCompositeType");

    assertThatThrownBy(() -> ParquetColumns.field("c", custom))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("column c")
        .hasMessageContaining("DynamicCompositeType")
        .hasMessageEndingWith("has no Parquet form");
  }

  @Test
  void a_row_of_another_width_or_a_schema_of_other_types_is_refused() {
    MessageType schema = ParquetColumns.schema(List.of("a"), List.of(DataTypes.INT));

    assertThatThrownBy(() -> new RowWriteSupport(schema, List.of(DataTypes.BIGINT)))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> ParquetColumns.schema(List.of("a", "b"), List.of(DataTypes.INT)))
        .isInstanceOf(IllegalArgumentException.class);
    RowWriteSupport support = new RowWriteSupport(schema, List.of(DataTypes.INT));
    assertThatThrownBy(() -> support.write(new Object[] {1, 2}))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("2 values for 1 columns");
  }

  /** The layout {@link ParquetColumns}'s documentation promises, for {@link CqlCases#all}. */
  private static final MessageType EVERY_TYPE =
      MessageTypeParser.parseMessageType(
          String.join(
              "\n",
              Arrays.asList(
                  "message varve {",
                  "  optional boolean c_boolean;",
                  "  optional int32 c_tinyint (INTEGER(8,true));",
                  "  optional int32 c_smallint (INTEGER(16,true));",
                  "  optional int32 c_int;",
                  "  optional int64 c_bigint;",
                  "  optional int64 c_counter;",
                  "  optional binary c_varint (STRING);",
                  "  optional binary c_decimal (STRING);",
                  "  optional float c_float;",
                  "  optional double c_double;",
                  "  optional binary c_ascii (STRING);",
                  "  optional binary c_text (STRING);",
                  "  optional binary c_blob;",
                  "  optional int64 c_timestamp (TIMESTAMP(MILLIS,true));",
                  "  optional int32 c_date (DATE);",
                  "  optional int64 c_time;",
                  "  optional binary c_uuid (STRING);",
                  "  optional binary c_timeuuid (STRING);",
                  "  optional binary c_inet (STRING);",
                  "  optional binary c_duration (STRING);",
                  "  optional group c_list (LIST) {",
                  "    repeated group list { optional int32 element; }",
                  "  }",
                  "  optional group c_frozen_list (LIST) {",
                  "    repeated group list { optional binary element (STRING); }",
                  "  }",
                  "  optional group c_set (LIST) {",
                  "    repeated group list { optional binary element (STRING); }",
                  "  }",
                  "  optional group c_map (MAP) {",
                  "    repeated group key_value {",
                  "      required binary key (STRING);",
                  "      optional group value (LIST) {",
                  "        repeated group list { optional int32 element; }",
                  "      }",
                  "    }",
                  "  }",
                  "  optional group c_list_of_tuples (LIST) {",
                  "    repeated group list {",
                  "      optional group element { optional int32 _1; optional binary _2 (STRING); }",
                  "    }",
                  "  }",
                  "  optional group c_tuple {",
                  "    optional int64 _1;",
                  "    optional group _2 (LIST) {",
                  "      repeated group list { optional binary element (STRING); }",
                  "    }",
                  "    optional group _3 {",
                  "      optional binary street (STRING);",
                  "      optional int32 zip;",
                  "      optional group Lines (LIST) {",
                  "        repeated group list { optional binary element (STRING); }",
                  "      }",
                  "    }",
                  "  }",
                  "  optional group c_udt {",
                  "    optional binary street (STRING);",
                  "    optional int32 zip;",
                  "    optional group Lines (LIST) {",
                  "      repeated group list { optional binary element (STRING); }",
                  "    }",
                  "  }",
                  "  optional group c_vector (LIST) {",
                  "    repeated group list { optional float element; }",
                  "  }",
                  "}")));
}
