package io.varve.reshaper.parquet;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Which Parquet fields can fill which CQL columns, and the reason given for those that cannot. */
class FitsTest {

  private static final String INT_LIST =
      "optional group f (LIST) { repeated group list { optional int32 element; } }";

  static Stream<Arguments> accepted() {
    return Stream.of(
        Arguments.of("optional boolean f;", DataTypes.BOOLEAN),
        Arguments.of("optional int64 f;", DataTypes.INT),
        Arguments.of("required int32 f (INTEGER(16,true));", DataTypes.BIGINT),
        Arguments.of("optional int32 f;", DataTypes.VARINT),
        Arguments.of("optional binary f (STRING);", DataTypes.VARINT),
        Arguments.of("optional fixed_len_byte_array(9) f (DECIMAL(20,0));", DataTypes.VARINT),
        Arguments.of("optional binary f (DECIMAL(30,5));", DataTypes.DECIMAL),
        Arguments.of("optional int64 f;", DataTypes.DECIMAL),
        Arguments.of("optional float f;", DataTypes.DOUBLE),
        Arguments.of("optional binary f (JSON);", DataTypes.TEXT),
        Arguments.of("optional binary f (STRING);", DataTypes.BLOB),
        Arguments.of("optional fixed_len_byte_array(3) f;", DataTypes.BLOB),
        Arguments.of("optional int64 f (TIMESTAMP(MICROS,true));", DataTypes.TIMESTAMP),
        Arguments.of("optional int64 f (TIMESTAMP(NANOS,false));", DataTypes.TIMESTAMP),
        Arguments.of("optional int96 f;", DataTypes.TIMESTAMP),
        Arguments.of("optional int32 f (TIME(MILLIS,true));", DataTypes.TIME),
        Arguments.of("optional int64 f;", DataTypes.TIME),
        Arguments.of("optional fixed_len_byte_array(16) f (UUID);", DataTypes.TIMEUUID),
        Arguments.of("optional binary f (STRING);", DataTypes.INET),
        Arguments.of("optional binary f (STRING);", DataTypes.DURATION),
        Arguments.of("repeated int32 f;", DataTypes.listOf(DataTypes.INT)),
        Arguments.of(INT_LIST, DataTypes.frozenSetOf(DataTypes.BIGINT)),
        Arguments.of(
            "optional group f (LIST) { repeated group list { required float element; } }",
            DataTypes.vectorOf(DataTypes.FLOAT, 3)),
        Arguments.of(
            "optional group f { optional int32 a; optional binary b (STRING); }",
            DataTypes.tupleOf(DataTypes.BIGINT, DataTypes.TEXT)),
        Arguments.of("optional group f { optional int32 zip; }", CqlCases.ADDRESS));
  }

  @ParameterizedTest(name = "{0} fits {1}")
  @MethodSource("accepted")
  void fields_that_can_fill_the_column_fit(String field, DataType type) {
    assertThat(ParquetColumns.fits(TempParquetFiles.field(field), type)).isNull();
  }

  static Stream<Arguments> refused() {
    return Stream.of(
        Arguments.of(
            "optional int64 f (TIMESTAMP(MICROS,true));",
            DataTypes.TEXT,
            "INT64 TIMESTAMP(MICROS,true) does not fit a text column"),
        Arguments.of(
            "optional int32 f (INTEGER(32,false));",
            DataTypes.INT,
            "INT32 INTEGER(32,false) does not fit an int column"),
        Arguments.of("optional double f;", DataTypes.FLOAT, "DOUBLE does not fit a float column"),
        Arguments.of("optional binary f;", DataTypes.TEXT, "BINARY does not fit a text column"),
        Arguments.of(
            "optional int64 f (DECIMAL(10,2));",
            DataTypes.VARINT,
            "INT64 DECIMAL(10,2) does not fit a varint column"),
        Arguments.of(
            "optional fixed_len_byte_array(16) f;",
            DataTypes.UUID,
            "FIXED_LEN_BYTE_ARRAY(16) does not fit a uuid column"),
        Arguments.of(
            "optional int64 f (TIME(NANOS,false));",
            DataTypes.TIMESTAMP,
            "INT64 TIME(NANOS,false) does not fit a timestamp column"),
        Arguments.of(
            "optional int64 f (TIMESTAMP(MILLIS,true));",
            DataTypes.TIME,
            "INT64 TIMESTAMP(MILLIS,true) does not fit a time column"),
        Arguments.of("optional int32 f;", DataTypes.DATE, "INT32 does not fit a date column"),
        Arguments.of(
            "optional int32 f;",
            DataTypes.listOf(DataTypes.INT),
            "INT32 does not fit a list<int> column"),
        Arguments.of(
            "repeated int32 f;", DataTypes.INT, "repeated INT32 does not fit an int column"),
        Arguments.of(
            INT_LIST,
            DataTypes.listOf(DataTypes.TEXT),
            "group LIST does not fit a list<text> column: element: INT32 does not fit a text column"),
        Arguments.of(
            "optional group f (MAP) { repeated group key_value {"
                + " required int32 key; optional int32 value; } }",
            DataTypes.mapOf(DataTypes.TEXT, DataTypes.INT),
            "group MAP does not fit a map<text, int> column: key: INT32 does not fit a text column"),
        Arguments.of(
            INT_LIST,
            DataTypes.mapOf(DataTypes.INT, DataTypes.INT),
            "group LIST does not fit a map<int, int> column"),
        Arguments.of(
            "optional group f { optional int32 a; optional int32 b; }",
            DataTypes.tupleOf(DataTypes.INT),
            "group does not fit a tuple<int> column"),
        Arguments.of(
            "optional group f { optional int32 a; optional binary b; }",
            DataTypes.tupleOf(DataTypes.INT, DataTypes.TEXT),
            "group does not fit a tuple<int, text> column: b: BINARY does not fit a text column"),
        Arguments.of(
            "optional group f { optional int32 zip; optional binary country (STRING); }",
            CqlCases.ADDRESS,
            "group does not fit a ks.address column: it has no field country"),
        Arguments.of(
            "optional boolean f;",
            DataTypes.custom("org.apache.cassandra.db.marshal.DynamicCompositeType"),
            "BOOLEAN does not fit a 'org.apache.cassandra.db.marshal.DynamicCompositeType' column"));
  }

  @ParameterizedTest(name = "{0} into {1}")
  @MethodSource("refused")
  void fields_that_cannot_fill_the_column_are_refused_with_both_named(
      String field, DataType type, String reason) {
    assertThat(ParquetColumns.fits(TempParquetFiles.field(field), type)).isEqualTo(reason);
  }
}
