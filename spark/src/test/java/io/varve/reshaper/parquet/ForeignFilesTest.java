package io.varve.reshaper.parquet;

import static io.varve.reshaper.parquet.TempParquetFiles.foreign;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.TupleType;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.apache.parquet.example.data.Group;
import org.apache.parquet.example.data.simple.NanoTime;
import org.apache.parquet.io.api.Binary;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Files written by other tools (Spark, pyarrow, Hive, Impala, parquet-avro) read into columns. */
class ForeignFilesTest {

  @TempDir Path dir;

  @Test
  void microsecond_and_nanosecond_timestamps_of_whole_milliseconds_are_read() throws Exception {
    List<Group> micros =
        foreign(
            dir,
            "optional int64 ts (TIMESTAMP(MICROS,true));",
            g -> g.add("ts", 1_500_000L),
            g -> g.add("ts", -1_000L),
            g -> g.add("ts", 1_500_001L),
            g -> {});
    List<Group> nanos =
        foreign(dir, "optional int64 ts (TIMESTAMP(NANOS,false));", g -> g.add("ts", -2_000_000L));

    assertThat(read(micros.get(0), DataTypes.TIMESTAMP)).isEqualTo(Instant.ofEpochMilli(1500));
    assertThat(read(micros.get(1), DataTypes.TIMESTAMP)).isEqualTo(Instant.ofEpochMilli(-1));
    assertThatThrownBy(() -> read(micros.get(2), DataTypes.TIMESTAMP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage(
            "ts: INT64 TIMESTAMP(MICROS,true) 1500001 is not a whole millisecond,"
                + " which a CQL timestamp cannot hold");
    assertThat(read(micros.get(3), DataTypes.TIMESTAMP)).isNull();
    assertThat(read(nanos.get(0), DataTypes.TIMESTAMP)).isEqualTo(Instant.ofEpochMilli(-2));
  }

  @Test
  void int96_timestamps_are_read_as_spark_and_impala_write_them() throws Exception {
    long epochJulianDay = 2_440_588;
    long leapDay = LocalDate.of(2024, 2, 29).toEpochDay();
    List<Group> records =
        foreign(
            dir,
            "optional int96 ts;",
            g -> g.add("ts", new NanoTime((int) epochJulianDay, 1_000_000L)),
            g -> g.add("ts", new NanoTime((int) epochJulianDay - 1, 86_399_999_000_000L)),
            g -> g.add("ts", new NanoTime((int) (epochJulianDay + leapDay), 45_296_789_000_000L)),
            g -> g.add("ts", new NanoTime((int) epochJulianDay, 1L)));

    assertThat(read(records.get(0), DataTypes.TIMESTAMP)).isEqualTo(Instant.ofEpochMilli(1));
    assertThat(read(records.get(1), DataTypes.TIMESTAMP)).isEqualTo(Instant.ofEpochMilli(-1));
    assertThat(read(records.get(2), DataTypes.TIMESTAMP))
        .isEqualTo(Instant.parse("2024-02-29T12:34:56.789Z"));
    assertThatThrownBy(() -> read(records.get(3), DataTypes.TIMESTAMP))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessageContaining("ts: INT96")
        .hasMessageContaining("not a whole millisecond");
  }

  @Test
  void decimals_on_int64_and_on_fixed_length_bytes_keep_their_scale() throws Exception {
    List<Group> longs =
        foreign(
            dir, "optional int64 d (DECIMAL(10,2));", g -> g.add("d", 350L), g -> g.add("d", -1L));
    List<Group> fixed =
        foreign(
            dir,
            "optional fixed_len_byte_array(5) d (DECIMAL(10,2));",
            g -> g.add("d", twosComplement(12_345, 5)),
            g -> g.add("d", twosComplement(-9_999_999_999L, 5)));

    assertThat(read(longs.get(0), DataTypes.DECIMAL)).isEqualTo(new BigDecimal("3.50"));
    assertThat(read(longs.get(1), DataTypes.DECIMAL)).isEqualTo(new BigDecimal("-0.01"));
    assertThat(read(fixed.get(0), DataTypes.DECIMAL)).isEqualTo(new BigDecimal("123.45"));
    assertThat(read(fixed.get(1), DataTypes.DECIMAL)).isEqualTo(new BigDecimal("-99999999.99"));
  }

  @Test
  void legacy_two_level_lists_and_bare_repeated_fields_are_read_as_lists() throws Exception {
    TupleType oneText = DataTypes.tupleOf(DataTypes.TEXT);
    List<Group> primitives =
        foreign(
            dir,
            "optional group l (LIST) { repeated int32 array; }",
            g -> g.addGroup("l").append("array", 1).append("array", 2).append("array", 1),
            g -> g.addGroup("l"));
    List<Group> structs =
        foreign(
            dir,
            "optional group l (LIST) { repeated group array { required binary s (UTF8); } }",
            g -> {
              Group list = g.addGroup("l");
              list.addGroup("array").append("s", "x");
              list.addGroup("array").append("s", "");
            });
    List<Group> tuples =
        foreign(
            dir,
            "optional group l (LIST) { repeated group l_tuple { required binary s (UTF8); } }",
            g -> g.addGroup("l").addGroup("l_tuple").append("s", "y"));
    List<Group> hive =
        foreign(
            dir,
            "optional group l (LIST) { repeated group bag { optional int32 array_element; } }",
            g -> g.addGroup("l").addGroup("bag").append("array_element", 7));
    List<Group> bare =
        foreign(dir, "repeated int32 r;", g -> g.append("r", 3).append("r", 3).append("r", 4));

    assertThat(read(primitives.get(0), DataTypes.listOf(DataTypes.INT)))
        .isEqualTo(List.of(1, 2, 1));
    assertThat(read(primitives.get(0), DataTypes.setOf(DataTypes.INT))).isEqualTo(Set.of(1, 2));
    assertThat(read(primitives.get(1), DataTypes.listOf(DataTypes.INT))).isEqualTo(List.of());
    assertThat(read(structs.get(0), DataTypes.listOf(oneText)))
        .isEqualTo(List.of(oneText.newValue("x"), oneText.newValue("")));
    assertThat(read(tuples.get(0), DataTypes.listOf(oneText)))
        .isEqualTo(List.of(oneText.newValue("y")));
    assertThat(read(hive.get(0), DataTypes.listOf(DataTypes.INT))).isEqualTo(List.of(7));
    assertThat(read(bare.get(0), DataTypes.setOf(DataTypes.INT))).isEqualTo(Set.of(3, 4));
  }

  @Test
  void maps_of_the_legacy_map_key_value_annotation_are_read() throws Exception {
    List<Group> records =
        foreign(
            dir,
            "optional group m (MAP_KEY_VALUE) { repeated group map {"
                + " required binary key (UTF8); optional int32 value; } }",
            g -> {
              Group map = g.addGroup("m");
              map.addGroup("map").append("key", "a").append("value", 1);
              map.addGroup("map").append("key", "b").append("value", 2);
            });

    assertThat(read(records.get(0), DataTypes.mapOf(DataTypes.TEXT, DataTypes.INT)))
        .isEqualTo(Map.of("a", 1, "b", 2));
  }

  @Test
  void parquet_uuids_of_sixteen_bytes_are_read_into_uuid_and_timeuuid() throws Exception {
    UUID random = UUID.fromString("123e4567-e89b-42d3-a456-426614174000");
    UUID timeBased = UUID.fromString("5f0b9b10-1dd2-11b2-8080-808080808080");
    List<Group> records =
        foreign(
            dir,
            "optional fixed_len_byte_array(16) u (UUID);",
            g -> g.add("u", uuidBytes(random)),
            g -> g.add("u", uuidBytes(timeBased)));

    assertThat(read(records.get(0), DataTypes.UUID)).isEqualTo(random);
    assertThat(read(records.get(1), DataTypes.TIMEUUID)).isEqualTo(timeBased);
  }

  @Test
  void narrower_wider_and_other_annotated_forms_are_converted() throws Exception {
    assertThat(one("optional int32 v;", g -> g.add("v", 7), DataTypes.BIGINT)).isEqualTo(7L);
    assertThat(
            one("optional int64 v (INTEGER(64,true));", g -> g.add("v", -128L), DataTypes.TINYINT))
        .isEqualTo((byte) -128);
    assertThat(one("optional int32 v (INTEGER(8,true));", g -> g.add("v", 5), DataTypes.INT))
        .isEqualTo(5);
    assertThat(one("optional int64 v;", g -> g.add("v", Long.MIN_VALUE), DataTypes.VARINT))
        .isEqualTo(BigInteger.valueOf(Long.MIN_VALUE));
    assertThat(one("optional int32 v (DECIMAL(9,0));", g -> g.add("v", -42), DataTypes.VARINT))
        .isEqualTo(BigInteger.valueOf(-42));
    assertThat(one("optional binary v (STRING);", g -> g.add("v", "-1e-3"), DataTypes.DECIMAL))
        .isEqualTo(new BigDecimal("-0.001"));
    assertThat(one("optional int32 v;", g -> g.add("v", 12), DataTypes.DECIMAL))
        .isEqualTo(BigDecimal.valueOf(12));
    assertThat(one("optional float v;", g -> g.add("v", 0.5f), DataTypes.DOUBLE)).isEqualTo(0.5);
    assertThat(one("optional binary v (ENUM);", g -> g.add("v", "RED"), DataTypes.TEXT))
        .isEqualTo("RED");
    assertThat(one("optional binary v (JSON);", g -> g.add("v", "{}"), DataTypes.ASCII))
        .isEqualTo("{}");
    assertThat(
            one("optional fixed_len_byte_array(2) v;", g -> g.add("v", bin(1, 2)), DataTypes.BLOB))
        .isEqualTo(ByteBuffer.wrap(new byte[] {1, 2}));
    assertThat(one("optional int32 v (TIME(MILLIS,true));", g -> g.add("v", 1_001), DataTypes.TIME))
        .isEqualTo(LocalTime.of(0, 0, 1, 1_000_000));
    assertThat(one("optional int64 v (TIME(MICROS,false));", g -> g.add("v", 1L), DataTypes.TIME))
        .isEqualTo(LocalTime.ofNanoOfDay(1_000));
    assertThat(one("optional int64 v (TIME(NANOS,false));", g -> g.add("v", 1L), DataTypes.TIME))
        .isEqualTo(LocalTime.ofNanoOfDay(1));
    assertThat(one("optional int32 v (DATE);", g -> g.add("v", -1), DataTypes.DATE))
        .isEqualTo(LocalDate.of(1969, 12, 31));
    assertThat(one("required binary v (UTF8);", g -> g.add("v", "::ffff:10.0.0.1"), DataTypes.INET))
        .hasToString("/10.0.0.1");
  }

  private Object one(String field, java.util.function.Consumer<Group> filler, DataType type)
      throws Exception {
    return read(foreign(dir, field, filler).get(0), type);
  }

  private static Object read(Group record, DataType type) {
    return ParquetColumns.read(record, 0, type);
  }

  /** {@code value} in {@code length} bytes of big-endian two's complement. */
  private static Binary twosComplement(long value, int length) {
    byte[] minimal = BigInteger.valueOf(value).toByteArray();
    byte[] bytes = new byte[length];
    Arrays.fill(bytes, value < 0 ? (byte) -1 : 0);
    System.arraycopy(minimal, 0, bytes, length - minimal.length, minimal.length);
    return Binary.fromConstantByteArray(bytes);
  }

  private static Binary uuidBytes(UUID uuid) {
    ByteBuffer bytes = ByteBuffer.allocate(16);
    bytes.putLong(uuid.getMostSignificantBits()).putLong(uuid.getLeastSignificantBits());
    return Binary.fromConstantByteArray(bytes.array());
  }

  private static Binary bin(int... values) {
    byte[] bytes = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      bytes[i] = (byte) values[i];
    }
    return Binary.fromConstantByteArray(bytes);
  }
}
