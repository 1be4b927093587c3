package io.varve.reshaper.job;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.data.CqlDuration;
import com.datastax.oss.driver.api.core.data.CqlVector;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.TupleType;
import com.datastax.oss.driver.api.core.type.UserDefinedType;
import com.datastax.oss.driver.api.core.uuid.Uuids;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalTime;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;

/**
 * The values of row {@code i} of a table with a column of every CQL type (see {@code ParquetIT}):
 * edge values among them (the extremes of bigint, NaN and -0.0, an empty blob and text, a decimal
 * keeping its trailing zero, dates before 1970, an empty list, a UDT with a null field).
 */
final class EveryType {
  private static final TupleType PAIR = DataTypes.tupleOf(DataTypes.INT, DataTypes.TEXT);

  private EveryType() {}

  static Object[] values(CqlSession session, String keyspace, int i) {
    return values(session, keyspace, i, false);
  }

  /**
   * The values of row {@code i}; {@code numbers}: only numbers DynamoDB holds (no NaN, infinity or
   * -0.0, at most 38 digits).
   */
  static Object[] values(CqlSession session, String keyspace, int i, boolean numbers) {
    UserDefinedType address =
        session
            .getMetadata()
            .getKeyspace(keyspace)
            .flatMap(k -> k.getUserDefinedType("address"))
            .orElseThrow();
    return new Object[] {
      i % 50,
      "c" + i,
      "ascii-" + i,
      i == 0 ? Long.MIN_VALUE : i == 1 ? Long.MAX_VALUE : i * 1_000_000_007L,
      ByteBuffer.wrap(
          ("blob-" + (1000 + i)).getBytes(StandardCharsets.UTF_8), 0, i == 2 ? 0 : 1 + i % 7),
      i % 2 == 0,
      LocalDate.of(1969, 12, 31).plusDays(i * 37L),
      i == 3
          ? new BigDecimal("3.50")
          : i == 4
              ? new BigDecimal(
                  numbers
                      ? "-12345678901234567890123456789.123456789"
                      : "-123456789012345678901234567890.123456789")
              : BigDecimal.valueOf(i, 2),
      i == 5 && !numbers ? Double.NaN : i == 6 && !numbers ? -0.0 : i / 3.0,
      CqlDuration.newInstance(i % 13, i, i * 1_000_000L),
      i == 7 && !numbers ? Float.NEGATIVE_INFINITY : i / 7f,
      inet(i),
      i * 31,
      (short) (i - 150),
      i == 9 ? "" : "texte é ✓ " + i,
      LocalTime.ofNanoOfDay(i * 123_456_789_123L % 86_400_000_000_000L),
      Instant.ofEpochMilli(-86_400_000L * 400 + i * 1_234_567_891L),
      Uuids.timeBased(),
      (byte) (i % 256 - 128),
      UUID.nameUUIDFromBytes(("u" + i).getBytes(StandardCharsets.UTF_8)),
      BigInteger.valueOf(i)
          .pow(numbers ? 12 : 20)
          .multiply(BigInteger.valueOf(i % 2 == 0 ? 1 : -1)),
      i == 10 ? List.of() : List.of(i, i + 1, i + 2),
      Set.of("x" + i, "y"),
      Map.of("a", i, "b", -i),
      List.of(PAIR.newValue(i, "one"), PAIR.newValue(null, "two")),
      i % 5 == 0
          ? address.newValue().setInt("zip", i)
          : address.newValue().setString("street", "street " + i).setInt("zip", i),
      CqlVector.newInstance(1f * i, 2f, -3.5f)
    };
  }

  private static InetAddress inet(int i) {
    try {
      return i == 8
          ? InetAddress.getByName("::1")
          : InetAddress.getByAddress(new byte[] {10, 0, (byte) (i >> 8), (byte) i});
    } catch (UnknownHostException e) {
      throw new IllegalStateException(e);
    }
  }
}
