package io.varve.reshaper.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.data.UdtValue;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.type.codec.TypeCodec;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import com.datastax.oss.driver.internal.core.type.UserDefinedTypeBuilder;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScalarAttributeType;

class AttributeValuesTest {
  private static final ProtocolVersion V = ProtocolVersion.DEFAULT;

  private static final UserDefinedType ADDRESS =
      new UserDefinedTypeBuilder("ks", "address")
          .withField("street", DataTypes.TEXT)
          .withField("\"Zip\"", DataTypes.INT)
          .withField("tags", DataTypes.frozenSetOf(DataTypes.TEXT))
          .build();

  /**
   * Takes v through the driver's codec (so it is exactly what a read of the column gives), checks
   * its attribute (when expected is given), reads the attribute back and checks that it is equal
   * and that the driver encodes it to the very same bytes.
   */
  private static AttributeValue roundTrip(DataType type, Object v, AttributeValue expected) {
    TypeCodec<Object> codec = CodecRegistry.DEFAULT.codecFor(type);
    Object cql = codec.decode(codec.encode(v, V), V);
    AttributeValue a = AttributeValues.of(type, cql);
    if (expected != null) {
      assertThat(a).isEqualTo(expected);
    }
    Object back = AttributeValues.value(type, a);
    assertThat(back).isEqualTo(cql);
    assertThat(codec.encode(back, V)).isEqualTo(codec.encode(cql, V));
    if (a.type() == AttributeValue.Type.N && type != DataTypes.DECIMAL) {
      // DynamoDB gives numbers back normalized: the plain digits read as the same value.
      String plain = new BigDecimal(a.n()).toPlainString();
      assertThat(AttributeValues.value(type, AttributeValue.fromN(plain))).isEqualTo(cql);
    }
    return a;
  }

  private static void roundTrips(DataType type, Object... values) {
    for (Object v : values) {
      roundTrip(type, v, null);
    }
  }

  private static AttributeValue n(String n) {
    return AttributeValue.fromN(n);
  }

  private static AttributeValue s(String s) {
    return AttributeValue.fromS(s);
  }

  private static void refusedRead(DataType type, AttributeValue a, String message) {
    assertThatThrownBy(() -> AttributeValues.value(type, a))
        .isInstanceOf(UnmappableValueException.class)
        .hasMessage(message);
  }

  private static void refusedWrite(DataType type, Object v, String message) {
    assertThatThrownBy(() -> AttributeValues.of(type, v))
        .isInstanceOf(UnmappableValueException.class)
        .hasMessage(message);
  }

  @Test
  void text_and_ascii() {
    roundTrip(DataTypes.TEXT, "", s(""));
    roundTrip(DataTypes.TEXT, "héllo wörld 🎉\n\u0000", s("héllo wörld 🎉\n\u0000"));
    roundTrip(DataTypes.ASCII, "", s(""));
    roundTrip(DataTypes.ASCII, "plain ~ ASCII", s("plain ~ ASCII"));
    refusedRead(
        DataTypes.ASCII,
        s("café"),
        "S \"café\" where an ascii column expects ASCII characters only");
    refusedWrite(DataTypes.ASCII, "café", "\"café\" is not ASCII, as ascii is");
    refusedRead(DataTypes.TEXT, n("1"), "N 1 where a text column expects S");
  }

  @Test
  void integers() {
    roundTrip(DataTypes.TINYINT, (byte) -128, n("-128"));
    roundTrips(DataTypes.TINYINT, (byte) 0, (byte) 127);
    roundTrip(DataTypes.SMALLINT, Short.MIN_VALUE, n("-32768"));
    roundTrips(DataTypes.SMALLINT, (short) 0, Short.MAX_VALUE);
    roundTrip(DataTypes.INT, Integer.MAX_VALUE, n("2147483647"));
    roundTrips(DataTypes.INT, Integer.MIN_VALUE, 0, -1);
    roundTrip(DataTypes.BIGINT, Long.MIN_VALUE, n("-9223372036854775808"));
    roundTrips(DataTypes.BIGINT, Long.MAX_VALUE, 0L);
    roundTrip(DataTypes.COUNTER, 42L, n("42"));
    roundTrips(DataTypes.COUNTER, Long.MIN_VALUE, Long.MAX_VALUE);
    BigInteger nines = new BigInteger("9".repeat(38));
    roundTrip(DataTypes.VARINT, nines, n("9".repeat(38)));
    roundTrips(
        DataTypes.VARINT,
        BigInteger.ZERO,
        nines.negate(),
        BigInteger.TEN.pow(125),
        BigInteger.TEN.pow(125).negate(),
        new BigInteger("12345678901234567890123456789012345678").multiply(BigInteger.TEN.pow(80)));

    // DynamoDB's normalized forms of integers read as the integers.
    assertThat(AttributeValues.value(DataTypes.INT, n("1E+2"))).isEqualTo(100);
    assertThat(AttributeValues.value(DataTypes.INT, n("100.00"))).isEqualTo(100);
    assertThat(AttributeValues.value(DataTypes.TIMESTAMP, n("-1")))
        .isEqualTo(Instant.ofEpochMilli(-1));

    refusedRead(DataTypes.TINYINT, n("300"), "N 300 is out of range for tinyint");
    refusedRead(DataTypes.TINYINT, n("128"), "N 128 is out of range for tinyint");
    refusedRead(DataTypes.SMALLINT, n("-32769"), "N -32769 is out of range for smallint");
    refusedRead(DataTypes.INT, n("2147483648"), "N 2147483648 is out of range for int");
    refusedRead(
        DataTypes.BIGINT,
        n("9223372036854775808"),
        "N 9223372036854775808 is out of range for bigint");
    refusedRead(DataTypes.INT, n("1.5"), "N 1.5 where an int column expects an integer");
    refusedRead(DataTypes.BIGINT, s("abc"), "S \"abc\" where a bigint column expects N");
    refusedRead(DataTypes.BIGINT, n("abc"), "N \"abc\" where a bigint column expects a number");
    refusedRead(
        DataTypes.VARINT,
        n("1E+126"),
        "N 1E+126 is outside DynamoDB's number range"
            + " (magnitudes 1E-130 to 9.9999999999999999999999999999999999999E+125)");
    refusedWrite(
        DataTypes.VARINT,
        new BigInteger("1".repeat(39)),
        "a varint of 39 digits: DynamoDB numbers hold at most 38");
    refusedWrite(
        DataTypes.VARINT,
        BigInteger.TEN.pow(126),
        "a varint 1"
            + "0".repeat(39)
            + "... is outside DynamoDB's number range"
            + " (magnitudes 1E-130 to 9.9999999999999999999999999999999999999E+125)");
    refusedWrite(DataTypes.BIGINT, 1, "a java.lang.Integer where bigint expects a java.lang.Long");
  }

  @Test
  void floats_and_doubles() {
    roundTrip(DataTypes.FLOAT, 1.5f, n("1.5"));
    roundTrip(DataTypes.FLOAT, 1e10f, n("1E+10"));
    roundTrip(DataTypes.FLOAT, Float.MIN_VALUE, n("1.4E-45"));
    roundTrip(DataTypes.FLOAT, 0.0f, n("0"));
    roundTrips(
        DataTypes.FLOAT, Float.MAX_VALUE, -Float.MAX_VALUE, Float.MIN_NORMAL, 0.1f, -3.25f, 1f / 3);
    roundTrip(DataTypes.DOUBLE, 0.1, n("0.1"));
    roundTrip(DataTypes.DOUBLE, 1e-130, n("1E-130"));
    roundTrip(DataTypes.DOUBLE, -1e-130, n("-1E-130"));
    roundTrip(DataTypes.DOUBLE, 100.0, n("1E+2"));
    roundTrips(
        DataTypes.DOUBLE,
        0.0,
        -1.0 / 3,
        Math.PI,
        -Math.nextUp(1e-130),
        Math.nextDown(1e126),
        -Math.nextDown(1e126),
        (double) Long.MAX_VALUE,
        (double) Float.MAX_VALUE,
        4.35e-100);
    // Every float is a number DynamoDB holds, and reads back with the very same bits.
    for (float f = Float.MIN_VALUE; f < Float.MAX_VALUE / 7; f *= 7.3f) {
      roundTrip(DataTypes.FLOAT, f, null);
    }

    refusedWrite(DataTypes.FLOAT, Float.NaN, "NaN has no DynamoDB number");
    refusedWrite(DataTypes.DOUBLE, Double.NaN, "NaN has no DynamoDB number");
    refusedWrite(DataTypes.DOUBLE, Double.POSITIVE_INFINITY, "Infinity has no DynamoDB number");
    refusedWrite(DataTypes.FLOAT, Float.NEGATIVE_INFINITY, "-Infinity has no DynamoDB number");
    refusedWrite(
        DataTypes.DOUBLE,
        -0.0,
        "a double -0.0 has no DynamoDB number: DynamoDB keeps no sign of zero");
    refusedWrite(
        DataTypes.FLOAT,
        -0.0f,
        "a float -0.0 has no DynamoDB number: DynamoDB keeps no sign of zero");
    String range =
        " is outside DynamoDB's number range"
            + " (magnitudes 1E-130 to 9.9999999999999999999999999999999999999E+125)";
    refusedWrite(DataTypes.DOUBLE, Double.MAX_VALUE, "a double 1.7976931348623157E+308" + range);
    refusedWrite(DataTypes.DOUBLE, Double.MIN_VALUE, "a double 4.9E-324" + range);
    roundTrip(DataTypes.DOUBLE, Math.nextDown(1e126), n("9.999999999999998E+125"));
    refusedWrite(DataTypes.DOUBLE, 1e126, "a double 1E+126" + range);
    refusedWrite(
        DataTypes.DOUBLE, -Math.nextDown(1e-130), "a double -9.999999999999999E-131" + range);
    refusedWrite(DataTypes.DOUBLE, 9.99e-131, "a double 9.99E-131" + range);

    refusedRead(DataTypes.FLOAT, n("1E+39"), "N 1E+39 is out of range for float");
    refusedRead(DataTypes.FLOAT, n("1E-46"), "N 1E-46 is out of range for float");
    refusedRead(DataTypes.DOUBLE, s("1.5"), "S \"1.5\" where a double column expects N");
    // The nearest float of digits that are not a float's own.
    assertThat(AttributeValues.value(DataTypes.FLOAT, n("0.1000000000000000000001")))
        .isEqualTo(0.1f);
  }

  @Test
  void decimals() {
    BigDecimal max = new BigDecimal("9.9999999999999999999999999999999999999E+125");
    roundTrip(DataTypes.DECIMAL, max, n("9.9999999999999999999999999999999999999E+125"));
    roundTrip(DataTypes.DECIMAL, new BigDecimal("3.14"), n("3.14"));
    roundTrip(DataTypes.DECIMAL, new BigDecimal("1E-130"), n("1E-130"));
    roundTrip(DataTypes.DECIMAL, BigDecimal.ZERO, n("0"));
    roundTrips(
        DataTypes.DECIMAL,
        max.negate(),
        new BigDecimal("-1E-130"),
        new BigDecimal("12345678901234567890123456789012345678"),
        new BigDecimal("0.12345678901234567890123456789012345678"),
        new BigDecimal("1E+3"),
        new BigDecimal("3.50"),
        // 38 significant digits, the rest trailing zeros, which DynamoDB does not keep.
        new BigDecimal("1234567890123456789012345678901234567800"));

    // As DynamoDB gives 3.50 back: an equal decimal of another scale.
    Object back = AttributeValues.value(DataTypes.DECIMAL, n("3.5"));
    assertThat((BigDecimal) back).isEqualByComparingTo("3.50");

    refusedWrite(
        DataTypes.DECIMAL,
        new BigDecimal("123456789012345678901234567890123456789"),
        "a decimal of 39 digits: DynamoDB numbers hold at most 38");
    refusedWrite(
        DataTypes.DECIMAL,
        new BigDecimal("1.234567890123456789012345678901234567890123"),
        "a decimal of 43 digits: DynamoDB numbers hold at most 38");
    refusedWrite(
        DataTypes.DECIMAL,
        new BigDecimal("1E-131"),
        "a decimal 1E-131 is outside DynamoDB's number range"
            + " (magnitudes 1E-130 to 9.9999999999999999999999999999999999999E+125)");
    refusedWrite(
        DataTypes.DECIMAL,
        new BigDecimal("1E+126"),
        "a decimal 1E+126 is outside DynamoDB's number range"
            + " (magnitudes 1E-130 to 9.9999999999999999999999999999999999999E+125)");
  }

  @Test
  void booleans_and_blobs() {
    roundTrip(DataTypes.BOOLEAN, true, AttributeValue.fromBool(true));
    roundTrip(DataTypes.BOOLEAN, false, AttributeValue.fromBool(false));
    refusedRead(DataTypes.BOOLEAN, s("true"), "S \"true\" where a boolean column expects BOOL");

    roundTrip(
        DataTypes.BLOB,
        ByteBuffer.allocate(0),
        AttributeValue.fromB(SdkBytes.fromByteArray(new byte[0])));
    roundTrip(
        DataTypes.BLOB,
        ByteBuffer.wrap(new byte[] {0, 1, 2, (byte) 255}),
        AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {0, 1, 2, (byte) 255})));
    // Only the remaining bytes, and the buffer is not consumed.
    ByteBuffer buffer = ByteBuffer.wrap(new byte[] {9, 8, 7, 6});
    buffer.position(1);
    assertThat(AttributeValues.of(DataTypes.BLOB, buffer).b().asByteArray())
        .containsExactly(8, 7, 6);
    assertThat(buffer.position()).isEqualTo(1);
    refusedRead(DataTypes.BLOB, s("AAEC"), "S \"AAEC\" where a blob column expects B");
  }

  @Test
  void timestamps() {
    roundTrip(DataTypes.TIMESTAMP, Instant.EPOCH, s("1970-01-01T00:00:00.000Z"));
    roundTrip(
        DataTypes.TIMESTAMP,
        Instant.ofEpochMilli(1_706_702_400_123L),
        s("2024-01-31T12:00:00.123Z"));
    roundTrip(DataTypes.TIMESTAMP, Instant.ofEpochMilli(-1), s("1969-12-31T23:59:59.999Z"));
    roundTrips(
        DataTypes.TIMESTAMP,
        Instant.ofEpochMilli(Long.MIN_VALUE),
        Instant.ofEpochMilli(Long.MAX_VALUE));
    // What CQL keeps of an instant is its milliseconds.
    assertThat(
            AttributeValues.of(DataTypes.TIMESTAMP, Instant.parse("2024-01-31T12:00:00.123456Z")))
        .isEqualTo(s("2024-01-31T12:00:00.123Z"));

    // The texts sort as the instants do.
    List<String> texts = new ArrayList<>();
    for (long ms : new long[] {0, 1, 999, 1000, 1001, 60_000, 1_706_702_400_000L}) {
      texts.add(AttributeValues.of(DataTypes.TIMESTAMP, Instant.ofEpochMilli(ms)).s());
    }
    assertThat(texts).isSorted();

    assertThat(AttributeValues.value(DataTypes.TIMESTAMP, s("2024-01-31T12:00:00Z")))
        .isEqualTo(Instant.ofEpochMilli(1_706_702_400_000L));
    assertThat(AttributeValues.value(DataTypes.TIMESTAMP, n("1706702400123")))
        .isEqualTo(Instant.ofEpochMilli(1_706_702_400_123L));
    refusedRead(
        DataTypes.TIMESTAMP,
        s("2024-01-31T12:00:00.000001Z"),
        "S \"2024-01-31T12:00:00.000001Z\" where a timestamp column expects whole milliseconds");
    refusedRead(
        DataTypes.TIMESTAMP,
        s("2024-01-31"),
        "S \"2024-01-31\" where a timestamp column expects an S ISO-8601 instant such as"
            + " 2024-01-31T12:00:00.000Z or an N of epoch milliseconds");
    refusedRead(DataTypes.TIMESTAMP, n("1.5"), "N 1.5 where a timestamp column expects an integer");
    refusedRead(
        DataTypes.TIMESTAMP,
        AttributeValue.fromBool(true),
        "BOOL true where a timestamp column expects an S ISO-8601 instant such as"
            + " 2024-01-31T12:00:00.000Z or an N of epoch milliseconds");
  }

  @Test
  void dates_times_and_durations() {
    roundTrip(DataTypes.DATE, LocalDate.of(2024, 2, 29), s("2024-02-29"));
    roundTrips(
        DataTypes.DATE,
        LocalDate.EPOCH,
        LocalDate.of(1, 1, 1),
        LocalDate.ofEpochDay(Integer.MIN_VALUE),
        LocalDate.ofEpochDay(Integer.MAX_VALUE));
    refusedRead(
        DataTypes.DATE, s("+9999999-01-01"), "S \"+9999999-01-01\" is out of range for date");
    refusedRead(
        DataTypes.DATE,
        s("2024-02-30"),
        "S \"2024-02-30\" where a date column expects an S of yyyy-MM-dd");

    roundTrip(DataTypes.TIME, LocalTime.MIDNIGHT, s("00:00"));
    roundTrip(DataTypes.TIME, LocalTime.of(12, 30, 15, 123_456_000), s("12:30:15.123456"));
    roundTrip(DataTypes.TIME, LocalTime.MAX, s("23:59:59.999999999"));
    roundTrips(DataTypes.TIME, LocalTime.of(0, 0, 0, 1), LocalTime.NOON);
    refusedRead(
        DataTypes.TIME,
        s("25:00"),
        "S \"25:00\" where a time column expects an S of HH:mm:ss.fffffffff");

    roundTrip(
        DataTypes.DURATION,
        CqlDuration.newInstance(14, 3, 3_723_004_005_006L),
        s("1y2mo3d1h2m3s4ms5us6ns"));
    roundTrip(DataTypes.DURATION, CqlDuration.newInstance(0, 0, 0), s("0s"));
    roundTrips(
        DataTypes.DURATION,
        CqlDuration.newInstance(-1, -2, -3),
        CqlDuration.newInstance(Integer.MAX_VALUE, Integer.MAX_VALUE, Long.MAX_VALUE));
    assertThat(AttributeValues.value(DataTypes.DURATION, s("P1DT2H")))
        .isEqualTo(CqlDuration.newInstance(0, 1, 7_200_000_000_000L));
    refusedRead(
        DataTypes.DURATION,
        s("soon"),
        "S \"soon\" where a duration column expects an S duration such as 1y2mo3d4h5m6s7ms8us9ns");
  }

  @Test
  void uuids() {
    UUID random = UUID.fromString("123e4567-e89b-42d3-a456-426614174000");
    roundTrip(DataTypes.UUID, random, s("123e4567-e89b-42d3-a456-426614174000"));
    roundTrips(DataTypes.UUID, new UUID(0, 0), new UUID(-1, -1), Uuids.timeBased());
    assertThat(AttributeValues.value(DataTypes.UUID, s("123E4567-E89B-42D3-A456-426614174000")))
        .isEqualTo(random);
    UUID time = Uuids.timeBased();
    roundTrip(DataTypes.TIMEUUID, time, s(time.toString()));
    roundTrips(DataTypes.TIMEUUID, Uuids.startOf(0), Uuids.endOf(1_706_702_400_000L));

    refusedRead(
        DataTypes.TIMEUUID,
        s(random.toString()),
        "S \"123e4567-e89b-42d3-a456-426614174000\" where a timeuuid column expects version 1,"
            + " not 4");
    refusedWrite(
        DataTypes.TIMEUUID,
        random,
        "a version 4 uuid 123e4567-e89b-42d3-a456-426614174000 where timeuuid expects version 1");
    refusedRead(
        DataTypes.UUID,
        s("1-2-3-4-5"),
        "S \"1-2-3-4-5\" where a uuid column expects an S uuid such as"
            + " 123e4567-e89b-12d3-a456-426614174000");
  }

  @Test
  void inets() throws Exception {
    roundTrip(DataTypes.INET, InetAddress.getByAddress(new byte[] {127, 0, 0, 1}), s("127.0.0.1"));
    roundTrip(DataTypes.INET, InetAddress.getByAddress(new byte[16]), s("0:0:0:0:0:0:0:0"));
    byte[] v6 = new byte[16];
    v6[0] = 0x20;
    v6[1] = 0x01;
    v6[15] = 1;
    roundTrip(DataTypes.INET, InetAddress.getByAddress(v6), s("2001:0:0:0:0:0:0:1"));
    roundTrips(
        DataTypes.INET,
        InetAddress.getByAddress(new byte[] {0, 0, 0, 0}),
        InetAddress.getByAddress(new byte[] {-1, -1, -1, -1}));

    assertThat(AttributeValues.value(DataTypes.INET, s("2001:db8::ff00:42:8329")))
        .isEqualTo(
            InetAddress.getByAddress(
                new byte[] {
                  0x20,
                  0x01,
                  0x0d,
                  (byte) 0xb8,
                  0,
                  0,
                  0,
                  0,
                  0,
                  0,
                  (byte) 0xff,
                  0,
                  0,
                  0x42,
                  (byte) 0x83,
                  0x29
                }));
    assertThat(AttributeValues.value(DataTypes.INET, s("::ffff:10.0.0.1")))
        .isEqualTo(InetAddress.getByAddress(new byte[] {10, 0, 0, 1}));

    // Names are never looked up: localhost would resolve if they were.
    for (String text :
        List.of(
            "example.com",
            "localhost",
            "1.2.3",
            "01.2.3.4",
            "256.1.1.1",
            "1.2.3.4.",
            "",
            "::g",
            "fe80::1%eth0",
            "[::1]",
            "1:2:3:4:5:6:7:8:9",
            "١.٢.٣.٤")) {
      refusedRead(
          DataTypes.INET,
          s(text),
          "S \"" + text + "\" where an inet column expects an S IPv4 or IPv6 address literal");
    }
  }

  @Test
  void lists() {
    DataType ints = DataTypes.listOf(DataTypes.INT);
    roundTrip(
        ints, List.of(3, 1, 2, 1), AttributeValue.fromL(List.of(n("3"), n("1"), n("2"), n("1"))));
    roundTrip(
        DataTypes.frozenListOf(DataTypes.TEXT),
        List.of("", "a"),
        AttributeValue.fromL(List.of(s(""), s("a"))));
    assertThat(AttributeValues.of(ints, List.of())).isNull();
    assertThat(AttributeValues.of(ints, null)).isNull();
    assertThat(AttributeValues.value(ints, AttributeValue.fromNul(true))).isNull();
    assertThat(AttributeValues.value(ints, null)).isNull();
    assertThat(AttributeValues.value(ints, AttributeValue.fromL(List.of()))).isEqualTo(List.of());
    // Nested, an empty collection is an empty L, and reads back as such.
    DataType nested = DataTypes.listOf(DataTypes.frozenListOf(DataTypes.INT));
    roundTrip(
        nested,
        List.of(List.of(), List.of(1)),
        AttributeValue.fromL(
            List.of(AttributeValue.fromL(List.of()), AttributeValue.fromL(List.of(n("1"))))));

    refusedWrite(
        ints, Arrays.asList(1, null), "a null element of int: CQL collections hold no nulls");
    refusedRead(
        ints,
        AttributeValue.fromL(List.of(n("1"), AttributeValue.fromNul(true))),
        "NULL where a nested int expects a value: CQL collections hold no nulls");
    refusedRead(
        ints,
        AttributeValue.fromL(List.of(n("1"), s("2"))),
        "S \"2\" where a nested int expects N");
    refusedRead(
        ints,
        AttributeValue.fromSs(List.of("1")),
        "SS of 1 strings where a list<int> column expects L");
  }

  /** list<list<...<int>...>> of the given depth, and a value of it with one int at the bottom. */
  private static DataType deepList(int depth) {
    DataType type = DataTypes.INT;
    for (int i = 0; i < depth; i++) {
      type = DataTypes.frozenListOf(type);
    }
    return type;
  }

  private static Object deepValue(int depth) {
    Object value = 7;
    for (int i = 0; i < depth; i++) {
      value = List.of(value);
    }
    return value;
  }

  @Test
  void nesting_depth() {
    AttributeValue a = roundTrip(deepList(32), deepValue(32), null);
    int depth = 0;
    while (a.type() == AttributeValue.Type.L) {
      a = a.l().get(0);
      depth++;
    }
    assertThat(depth).isEqualTo(32);
    assertThat(a).isEqualTo(n("7"));

    String reason = "a type nested 33 levels deep: DynamoDB nests at most 32";
    assertThat(AttributeValues.unmappable(deepList(33))).isEqualTo(reason);
    refusedWrite(deepList(33), deepValue(33), reason);
    refusedRead(deepList(33), AttributeValue.fromL(List.of()), reason);
    assertThat(AttributeValues.unmappable(DataTypes.listOf(DataTypes.tupleOf(deepList(32)))))
        .isEqualTo("a type nested 33 levels deep: DynamoDB nests at most 32");
  }

  @Test
  void sets() {
    roundTrip(
        DataTypes.setOf(DataTypes.TEXT),
        new LinkedHashSet<>(List.of("a", "b", "")),
        AttributeValue.fromSs(List.of("a", "b", "")));
    assertThat(roundTrip(DataTypes.setOf(DataTypes.INT), Set.of(1, 2, -3), null).ns())
        .containsExactlyInAnyOrder("-3", "1", "2");
    assertThat(roundTrip(DataTypes.setOf(DataTypes.VARINT), Set.of(BigInteger.TEN), null))
        .isEqualTo(AttributeValue.fromNs(List.of("10")));
    assertThat(
            roundTrip(
                    DataTypes.setOf(DataTypes.BLOB),
                    Set.of(ByteBuffer.wrap(new byte[] {1}), ByteBuffer.wrap(new byte[] {2, 3})),
                    null)
                .bs())
        .containsExactlyInAnyOrder(
            SdkBytes.fromByteArray(new byte[] {1}), SdkBytes.fromByteArray(new byte[] {2, 3}));
    assertThat(roundTrip(DataTypes.setOf(DataTypes.BOOLEAN), Set.of(true, false), null).l())
        .containsExactlyInAnyOrder(AttributeValue.fromBool(false), AttributeValue.fromBool(true));
    roundTrip(
        DataTypes.setOf(DataTypes.TIMESTAMP),
        Set.of(Instant.EPOCH),
        AttributeValue.fromSs(List.of("1970-01-01T00:00:00.000Z")));
    roundTrips(
        DataTypes.setOf(DataTypes.frozenListOf(DataTypes.DOUBLE)),
        Set.of(List.of(1.5, 2.0), List.of()));
    roundTrips(DataTypes.frozenSetOf(DataTypes.UUID), Set.of(new UUID(1, 2), new UUID(3, 4)));
    assertThat(AttributeValues.of(DataTypes.setOf(DataTypes.TEXT), Set.of())).isNull();
    // A nested empty set is an empty L (DynamoDB has no empty SS).
    DataType sets = DataTypes.listOf(DataTypes.frozenSetOf(DataTypes.TEXT));
    roundTrip(
        sets, List.of(Set.of()), AttributeValue.fromL(List.of(AttributeValue.fromL(List.of()))));
    // An L reads into a set column too.
    assertThat(
            AttributeValues.value(
                DataTypes.setOf(DataTypes.TEXT), AttributeValue.fromL(List.of(s("x"), s("y")))))
        .isEqualTo(Set.of("x", "y"));

    refusedRead(
        DataTypes.setOf(DataTypes.INT),
        AttributeValue.fromSs(List.of("1")),
        "SS of 1 strings where a set<int> column expects NS or L");
    refusedRead(
        DataTypes.setOf(DataTypes.BOOLEAN),
        AttributeValue.fromSs(List.of("true")),
        "SS of 1 strings where a set<boolean> column expects L");
    refusedRead(
        DataTypes.setOf(DataTypes.INT),
        AttributeValue.fromNs(List.of("1", "1.5")),
        "N 1.5 where a nested int expects an integer");
  }

  @Test
  void maps() {
    DataType type = DataTypes.mapOf(DataTypes.INT, DataTypes.listOf(DataTypes.TEXT));
    Map<Integer, List<String>> map = new LinkedHashMap<>();
    map.put(-1, List.of("a", "b"));
    map.put(2, List.of(""));
    roundTrip(
        type,
        map,
        AttributeValue.fromM(
            Map.of(
                "-1", AttributeValue.fromL(List.of(s("a"), s("b"))),
                "2", AttributeValue.fromL(List.of(s(""))))));
    roundTrip(
        DataTypes.mapOf(DataTypes.TEXT, DataTypes.BIGINT),
        Map.of("", 1L, "a.b", Long.MIN_VALUE),
        AttributeValue.fromM(Map.of("", n("1"), "a.b", n("-9223372036854775808"))));
    roundTrip(
        DataTypes.mapOf(DataTypes.BLOB, DataTypes.TEXT),
        Map.of(ByteBuffer.wrap(new byte[] {(byte) 0xfb, (byte) 0xff}), "x"),
        AttributeValue.fromM(Map.of("+/8=", s("x"))));
    roundTrip(
        DataTypes.mapOf(DataTypes.BOOLEAN, DataTypes.INT),
        Map.of(true, 1),
        AttributeValue.fromM(Map.of("true", n("1"))));
    roundTrip(
        DataTypes.mapOf(DataTypes.TIMESTAMP, DataTypes.BOOLEAN),
        Map.of(Instant.EPOCH, true),
        AttributeValue.fromM(Map.of("1970-01-01T00:00:00.000Z", AttributeValue.fromBool(true))));
    roundTrips(
        DataTypes.mapOf(DataTypes.DOUBLE, DataTypes.DECIMAL),
        Map.of(1.5, BigDecimal.ONE, 1e-100, new BigDecimal("2.50")));
    roundTrips(
        DataTypes.mapOf(DataTypes.UUID, DataTypes.frozenMapOf(DataTypes.DATE, DataTypes.INET)),
        Map.of(new UUID(5, 6), Map.of(LocalDate.EPOCH, InetAddress.getLoopbackAddress())));
    assertThat(AttributeValues.of(type, Map.of())).isNull();

    Map<Integer, String> withNull = new LinkedHashMap<>();
    withNull.put(1, null);
    refusedWrite(
        DataTypes.mapOf(DataTypes.INT, DataTypes.TEXT),
        withNull,
        "a null map value in map<int, text>: CQL collections hold no nulls");
    refusedRead(
        type,
        AttributeValue.fromM(Map.of("one", AttributeValue.fromL(List.of()))),
        "M key \"one\" where a map<int, list<text>> column expects keys of int");
    refusedRead(
        DataTypes.mapOf(DataTypes.TINYINT, DataTypes.TEXT),
        AttributeValue.fromM(Map.of("300", s("x"))),
        "M key \"300\" where a map<tinyint, text> column expects keys of tinyint");
    refusedRead(
        DataTypes.mapOf(DataTypes.BOOLEAN, DataTypes.TEXT),
        AttributeValue.fromM(Map.of("yes", s("x"))),
        "M key \"yes\" where a map<boolean, text> column expects keys of boolean");
    refusedRead(
        type,
        AttributeValue.fromM(Map.of("1", AttributeValue.fromNul(true))),
        "NULL where a nested list<text> expects a value: CQL collections hold no nulls");
    refusedRead(
        type,
        AttributeValue.fromL(List.of()),
        "L of 0 elements where a map<int, list<text>> column expects M");
  }

  @Test
  void tuples() {
    TupleType type = DataTypes.tupleOf(DataTypes.INT, DataTypes.TEXT, DataTypes.BLOB);
    roundTrip(
        type,
        type.newValue(1, null, ByteBuffer.wrap(new byte[] {4})),
        AttributeValue.fromL(
            List.of(
                n("1"),
                AttributeValue.fromNul(true),
                AttributeValue.fromB(SdkBytes.fromByteArray(new byte[] {4})))));
    roundTrip(
        type,
        type.newValue(null, null, null),
        AttributeValue.fromL(Collections.nCopies(3, AttributeValue.fromNul(true))));
    TupleType nested = DataTypes.tupleOf(ADDRESS, DataTypes.listOf(type));
    roundTrips(
        nested,
        nested.newValue(
            ADDRESS.newValue("Main St", 12345, Set.of("home")),
            List.of(type.newValue(2, "x", ByteBuffer.allocate(0)))));

    refusedRead(
        type,
        AttributeValue.fromL(List.of(n("1"), s("x"))),
        "L of 2 elements where a tuple<int, text, blob> column expects 3 components");
    refusedRead(
        type,
        AttributeValue.fromL(List.of(s("1"), s("x"), AttributeValue.fromNul(true))),
        "S \"1\" where a nested int expects N");
  }

  @Test
  void user_defined_types() {
    roundTrip(
        ADDRESS,
        ADDRESS.newValue("Main St", null, new LinkedHashSet<>(List.of("a", "b"))),
        AttributeValue.fromM(
            Map.of("street", s("Main St"), "tags", AttributeValue.fromSs(List.of("a", "b")))));
    roundTrip(
        ADDRESS,
        ADDRESS.newValue(null, 75001, null),
        AttributeValue.fromM(Map.of("Zip", n("75001"))));
    // An empty (not null) collection field is an empty L.
    roundTrip(
        ADDRESS,
        ADDRESS.newValue(null, null, Set.of()),
        AttributeValue.fromM(Map.of("tags", AttributeValue.fromL(List.of()))));
    roundTrip(ADDRESS, ADDRESS.newValue(), AttributeValue.fromM(Map.of()));
    // A NULL field reads as a null one.
    UdtValue read =
        (UdtValue)
            AttributeValues.value(
                ADDRESS, AttributeValue.fromM(Map.of("street", AttributeValue.fromNul(true))));
    assertThat(read).isEqualTo(ADDRESS.newValue());

    refusedRead(
        ADDRESS,
        AttributeValue.fromM(Map.of("zip", n("1"))),
        "M of 1 entries where a ks.address column expects the fields of ks.address, not \"zip\"");
    refusedRead(
        ADDRESS,
        AttributeValue.fromM(Map.of("Zip", s("75001"))),
        "S \"75001\" where a nested int expects N");
  }

  @Test
  void vectors() {
    DataType type = DataTypes.vectorOf(DataTypes.FLOAT, 3);
    roundTrip(
        type,
        CqlVector.newInstance(1.5f, -0.25f, Float.MIN_VALUE),
        AttributeValue.fromL(List.of(n("1.5"), n("-0.25"), n("1.4E-45"))));
    roundTrips(DataTypes.listOf(type), List.of(CqlVector.newInstance(0f, 1f, 2f)));

    refusedRead(
        type,
        AttributeValue.fromL(List.of(n("1"), n("2"))),
        "L of 2 elements where a vector<float, 3> column expects 3 elements, one per dimension");
    refusedWrite(
        type, CqlVector.newInstance(1f, 2f), "a vector of 2 where vector<float, 3> is expected");
    refusedWrite(type, CqlVector.newInstance(1f, Float.NaN, 2f), "NaN has no DynamoDB number");
    refusedRead(
        type,
        AttributeValue.fromL(List.of(n("1"), AttributeValue.fromNul(true), n("2"))),
        "NULL where a nested float expects a value: CQL collections hold no nulls");
  }

  @Test
  void key_types() {
    for (DataType t :
        List.of(
            DataTypes.TEXT,
            DataTypes.ASCII,
            DataTypes.TIMESTAMP,
            DataTypes.DATE,
            DataTypes.TIME,
            DataTypes.DURATION,
            DataTypes.UUID,
            DataTypes.TIMEUUID,
            DataTypes.INET)) {
      assertThat(AttributeValues.keyType(t)).as(t.toString()).isEqualTo(ScalarAttributeType.S);
    }
    for (DataType t :
        List.of(
            DataTypes.TINYINT,
            DataTypes.SMALLINT,
            DataTypes.INT,
            DataTypes.BIGINT,
            DataTypes.VARINT,
            DataTypes.COUNTER,
            DataTypes.FLOAT,
            DataTypes.DOUBLE,
            DataTypes.DECIMAL)) {
      assertThat(AttributeValues.keyType(t)).as(t.toString()).isEqualTo(ScalarAttributeType.N);
    }
    assertThat(AttributeValues.keyType(DataTypes.BLOB)).isEqualTo(ScalarAttributeType.B);
    for (DataType t :
        List.of(
            DataTypes.BOOLEAN,
            DataTypes.listOf(DataTypes.TEXT),
            DataTypes.setOf(DataTypes.TEXT),
            DataTypes.mapOf(DataTypes.TEXT, DataTypes.TEXT),
            DataTypes.tupleOf(DataTypes.TEXT),
            ADDRESS,
            DataTypes.vectorOf(DataTypes.FLOAT, 2),
            DataTypes.custom("org.example.Thing"))) {
      assertThat(AttributeValues.keyType(t)).as(t.toString()).isNull();
    }
  }

  @Test
  void unmappable_types() {
    for (DataType t :
        List.of(
            DataTypes.TEXT,
            DataTypes.ASCII,
            DataTypes.TINYINT,
            DataTypes.SMALLINT,
            DataTypes.INT,
            DataTypes.BIGINT,
            DataTypes.VARINT,
            DataTypes.COUNTER,
            DataTypes.FLOAT,
            DataTypes.DOUBLE,
            DataTypes.DECIMAL,
            DataTypes.BOOLEAN,
            DataTypes.BLOB,
            DataTypes.TIMESTAMP,
            DataTypes.DATE,
            DataTypes.TIME,
            DataTypes.DURATION,
            DataTypes.UUID,
            DataTypes.TIMEUUID,
            DataTypes.INET,
            DataTypes.listOf(DataTypes.frozenSetOf(DataTypes.BOOLEAN)),
            DataTypes.mapOf(DataTypes.BLOB, ADDRESS),
            DataTypes.mapOf(DataTypes.DURATION, DataTypes.tupleOf(DataTypes.INT)),
            DataTypes.vectorOf(DataTypes.FLOAT, 1024),
            DataTypes.vectorOf(DataTypes.DOUBLE, 2),
            ADDRESS)) {
      assertThat(AttributeValues.unmappable(t)).as(t.toString()).isNull();
    }
    assertThat(AttributeValues.unmappable(DataTypes.custom("org.example.Thing")))
        .isEqualTo("custom type 'org.example.Thing' has no DynamoDB form");
    assertThat(
            AttributeValues.unmappable(
                DataTypes.listOf(DataTypes.tupleOf(DataTypes.custom("org.example.Thing")))))
        .isEqualTo("custom type 'org.example.Thing' has no DynamoDB form");
    assertThat(
            AttributeValues.unmappable(
                DataTypes.mapOf(DataTypes.frozenListOf(DataTypes.INT), DataTypes.INT)))
        .isEqualTo("map keys of type list<int> have no DynamoDB form (M names are texts)");
    assertThat(AttributeValues.unmappable(DataTypes.mapOf(ADDRESS, DataTypes.INT)))
        .isEqualTo("map keys of type ks.address have no DynamoDB form (M names are texts)");
    assertThat(AttributeValues.unmappable(DataTypes.vectorOf(DataTypes.TEXT, 2)))
        .isEqualTo("a vector of text has no DynamoDB form");
    refusedWrite(
        DataTypes.custom("org.example.Thing"),
        ByteBuffer.allocate(1),
        "custom type 'org.example.Thing' has no DynamoDB form");
    refusedRead(
        DataTypes.custom("org.example.Thing"),
        s("x"),
        "custom type 'org.example.Thing' has no DynamoDB form");
  }

  @Test
  void item_sizes() {
    assertThat(AttributeValues.MAX_ITEM_BYTES).isEqualTo(409_600);
    assertThat(AttributeValues.itemSize(Map.of())).isZero();
    // Name 2 + "abc" 3.
    assertThat(AttributeValues.itemSize(Map.of("id", s("abc")))).isEqualTo(5);
    // "é" is 2 bytes, "日本" 6, "🎉" 4.
    assertThat(AttributeValues.itemSize(Map.of("é", s("日本🎉")))).isEqualTo(12);
    // 12345 (5 significant digits): 3 + 1; 100 (1 digit): 1 + 1; 0: 1 + 1.
    assertThat(AttributeValues.itemSize(Map.of("n", n("123.45")))).isEqualTo(1 + 4);
    assertThat(AttributeValues.itemSize(Map.of("n", n("100")))).isEqualTo(1 + 2);
    assertThat(AttributeValues.itemSize(Map.of("n", n("-0.000")))).isEqualTo(1 + 2);
    assertThat(AttributeValues.itemSize(Map.of("n", n("9".repeat(38))))).isEqualTo(1 + 20);
    // B: its bytes; BOOL and NULL: 1 each.
    assertThat(
            AttributeValues.itemSize(
                Map.of(
                    "b", AttributeValue.fromB(SdkBytes.fromByteArray(new byte[10])),
                    "t", AttributeValue.fromBool(true),
                    "z", AttributeValue.fromNul(true))))
        .isEqualTo(11 + 2 + 2);
    // L: 3 + N "1" (2) + S "ab" (2).
    assertThat(
            AttributeValues.itemSize(Map.of("l", AttributeValue.fromL(List.of(n("1"), s("ab"))))))
        .isEqualTo(1 + 3 + 2 + 2);
    // M: 3 + "k" 1 + "v" 1 + "kk" 2 + N 100 2; nested M: 3 + "x" 1 + empty L 3.
    assertThat(
            AttributeValues.itemSize(
                Map.of(
                    "m",
                    AttributeValue.fromM(Map.of("k", s("v"), "kk", n("100"))),
                    "mm",
                    AttributeValue.fromM(Map.of("x", AttributeValue.fromL(List.of()))))))
        .isEqualTo(1 + 3 + 2 + 4 + 2 + 3 + 1 + 3);
    // Sets: the sum of their elements.
    assertThat(
            AttributeValues.itemSize(
                Map.of(
                    "ss", AttributeValue.fromSs(List.of("a", "bc")),
                    "ns", AttributeValue.fromNs(List.of("1", "22", "333")),
                    "bs",
                        AttributeValue.fromBs(
                            List.of(
                                SdkBytes.fromByteArray(new byte[3]),
                                SdkBytes.fromByteArray(new byte[4]))))))
        .isEqualTo(2 + 3 + 2 + (2 + 2 + 3) + 2 + 7);
    // Exactly at the limit.
    assertThat(AttributeValues.itemSize(Map.of("0123456789", s("x".repeat(409_590)))))
        .isEqualTo(AttributeValues.MAX_ITEM_BYTES);
    // An item made by of(): a UDT with a null field and a tuple.
    Map<String, AttributeValue> item = new LinkedHashMap<>();
    item.put("pk", AttributeValues.of(DataTypes.BIGINT, 123456789L));
    item.put("addr", AttributeValues.of(ADDRESS, ADDRESS.newValue("Rue", null, null)));
    // pk: 2 + 9 digits (6); addr: 4 + M 3 + street 6 + Rue 3.
    assertThat(AttributeValues.itemSize(item)).isEqualTo(2 + 6 + 4 + 3 + 6 + 3);
  }
}
