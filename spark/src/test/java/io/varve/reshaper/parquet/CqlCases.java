package io.varve.reshaper.parquet;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import com.datastax.oss.driver.internal.core.type.UserDefinedTypeBuilder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.UUID;

/** A column of every CQL type the mapping knows, with edge values of it and a null. */
record CqlCases(String name, DataType type, List<Object> values) {

  static final UserDefinedType ADDRESS =
      new UserDefinedTypeBuilder(
              CqlIdentifier.fromInternal("ks"), CqlIdentifier.fromInternal("address"))
          .withField(CqlIdentifier.fromInternal("street"), DataTypes.TEXT)
          .withField(CqlIdentifier.fromInternal("zip"), DataTypes.INT)
          .withField(CqlIdentifier.fromInternal("Lines"), DataTypes.frozenListOf(DataTypes.TEXT))
          .build();

  static final TupleType INT_TEXT = DataTypes.tupleOf(DataTypes.INT, DataTypes.TEXT);

  @Override
  public String toString() {
    return name;
  }

  static List<CqlCases> all() {
    return List.of(
        of("c_boolean", DataTypes.BOOLEAN, true, false),
        of("c_tinyint", DataTypes.TINYINT, Byte.MIN_VALUE, (byte) 0, Byte.MAX_VALUE),
        of("c_smallint", DataTypes.SMALLINT, Short.MIN_VALUE, (short) -1, Short.MAX_VALUE),
        of("c_int", DataTypes.INT, Integer.MIN_VALUE, 0, Integer.MAX_VALUE),
        of("c_bigint", DataTypes.BIGINT, Long.MIN_VALUE, 0L, Long.MAX_VALUE),
        of("c_counter", DataTypes.COUNTER, Long.MIN_VALUE, 1L, Long.MAX_VALUE),
        of(
            "c_varint",
            DataTypes.VARINT,
            BigInteger.TWO.pow(200).negate(),
            BigInteger.ZERO,
            BigInteger.valueOf(Long.MAX_VALUE).add(BigInteger.ONE)),
        of(
            "c_decimal",
            DataTypes.DECIMAL,
            new BigDecimal("3.50"),
            new BigDecimal("-1E+10"),
            new BigDecimal("0.000000000000000000000000000001"),
            new BigDecimal(BigInteger.TEN.pow(60).negate(), 30),
            BigDecimal.ZERO),
        of(
            "c_float",
            DataTypes.FLOAT,
            Float.NaN,
            -0.0f,
            Float.MIN_VALUE,
            Float.MAX_VALUE,
            Float.NEGATIVE_INFINITY),
        of(
            "c_double",
            DataTypes.DOUBLE,
            Double.NaN,
            -0.0,
            Double.MIN_VALUE,
            -Double.MAX_VALUE,
            Double.POSITIVE_INFINITY),
        of("c_ascii", DataTypes.ASCII, "", "plain ascii ~\t\u007f"),
        of("c_text", DataTypes.TEXT, "", "héllo ☃ 𝄞", "nul\u0000inside"),
        of(
            "c_blob",
            DataTypes.BLOB,
            blob(0),
            ByteBuffer.wrap(new byte[] {0, 1, -1}),
            blob(1 << 20)),
        of(
            "c_timestamp",
            DataTypes.TIMESTAMP,
            Instant.ofEpochMilli(-1),
            Instant.parse("1900-01-01T00:00:00.123Z"),
            Instant.ofEpochMilli(Long.MIN_VALUE),
            Instant.ofEpochMilli(Long.MAX_VALUE),
            Instant.parse("2024-02-29T12:34:56.789Z")),
        of(
            "c_date",
            DataTypes.DATE,
            LocalDate.of(1969, 12, 31),
            LocalDate.ofEpochDay(Integer.MIN_VALUE),
            LocalDate.ofEpochDay(Integer.MAX_VALUE),
            LocalDate.of(2024, 2, 29)),
        of(
            "c_time",
            DataTypes.TIME,
            LocalTime.MIDNIGHT,
            LocalTime.MAX,
            LocalTime.of(12, 34, 56, 789)),
        of("c_uuid", DataTypes.UUID, UUID.randomUUID(), new UUID(0, 0), new UUID(-1, -1)),
        of("c_timeuuid", DataTypes.TIMEUUID, Uuids.timeBased(), Uuids.startOf(-1000)),
        of(
            "c_inet",
            DataTypes.INET,
            inet("127.0.0.1"),
            inet("::1"),
            inet("2001:db8::ff00:42:8329"),
            inet("0.0.0.0")),
        of(
            "c_duration",
            DataTypes.DURATION,
            CqlDuration.newInstance(1, 2, 3_000_000_001L),
            CqlDuration.newInstance(-14, -3, -5),
            CqlDuration.newInstance(0, 0, 0),
            CqlDuration.newInstance(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE)),
        of(
            "c_list",
            DataTypes.listOf(DataTypes.INT),
            List.of(),
            List.of(3, 1, 3, Integer.MIN_VALUE)),
        of("c_frozen_list", DataTypes.frozenListOf(DataTypes.TEXT), List.of(), List.of("", "b")),
        of(
            "c_set",
            DataTypes.setOf(DataTypes.UUID),
            Set.of(),
            orderedSet(new UUID(0, 1), UUID.randomUUID(), new UUID(5, 5))),
        of(
            "c_map",
            DataTypes.mapOf(DataTypes.TEXT, DataTypes.frozenListOf(DataTypes.INT)),
            Map.of(),
            orderedMap("a", List.of(1, 2), "", List.of(), "z", List.of(-7))),
        of(
            "c_list_of_tuples",
            DataTypes.listOf(INT_TEXT),
            List.of(INT_TEXT.newValue(1, "x"), INT_TEXT.newValue(null, ""))),
        of(
            "c_tuple",
            DataTypes.tupleOf(DataTypes.BIGINT, DataTypes.setOf(DataTypes.TEXT), ADDRESS),
            DataTypes.tupleOf(DataTypes.BIGINT, DataTypes.setOf(DataTypes.TEXT), ADDRESS)
                .newValue(5L, orderedSet("b", "a"), ADDRESS.newValue("main", 3, List.of()))),
        of(
            "c_udt",
            ADDRESS,
            ADDRESS.newValue("high street", null, List.of("flat 2", "")),
            ADDRESS.newValue(null, null, null)),
        of(
            "c_vector",
            DataTypes.vectorOf(DataTypes.FLOAT, 3),
            CqlVector.newInstance(1.5f, -0.0f, Float.NaN),
            CqlVector.newInstance(Float.MAX_VALUE, Float.MIN_VALUE, 0f)));
  }

  /** {@code values} and a null. */
  private static CqlCases of(String name, DataType type, Object... values) {
    List<Object> withNull = new java.util.ArrayList<>(Arrays.asList(values));
    withNull.add(1, null);
    return new CqlCases(name, type, withNull);
  }

  private static ByteBuffer blob(int size) {
    byte[] bytes = new byte[size];
    new Random(size).nextBytes(bytes);
    return ByteBuffer.wrap(bytes);
  }

  private static InetAddress inet(String literal) {
    try {
      return InetAddress.getByName(literal);
    } catch (UnknownHostException e) {
      throw new AssertionError(e);
    }
  }

  @SafeVarargs
  private static <T> Set<T> orderedSet(T... values) {
    return new LinkedHashSet<>(Arrays.asList(values));
  }

  private static Map<Object, Object> orderedMap(Object... keysAndValues) {
    Map<Object, Object> map = new LinkedHashMap<>();
    for (int i = 0; i < keysAndValues.length; i += 2) {
      map.put(keysAndValues[i], keysAndValues[i + 1]);
    }
    return map;
  }
}
