package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import io.varve.reshaper.config.JobConfig;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The comparisons of validation within the {@code validation} section's tolerances: {@code float}
 * and {@code double} values within {@code floatingPointTolerance} (NaN equal to NaN), {@code
 * timestamp} values within {@code timestampMsTolerance}, other values byte for byte; writetimes
 * within {@code writetimeToleranceMillis} and TTLs within {@code ttlToleranceMillis}.
 */
final class Tolerances {
  private Tolerances() {}

  /** True when {@code expected} and {@code actual}, encoded values of {@code type}, count equal. */
  static boolean sameValue(
      DataType type, byte[] expected, byte[] actual, JobConfig.Validation tolerances) {
    if (Arrays.equals(expected, actual)) {
      return true;
    }
    if (expected == null || actual == null) {
      return false;
    }
    if (type.equals(DataTypes.DOUBLE) && expected.length == 8 && actual.length == 8) {
      return close(
          ByteBuffer.wrap(expected).getDouble(),
          ByteBuffer.wrap(actual).getDouble(),
          tolerances.floatingPointTolerance());
    }
    if (type.equals(DataTypes.FLOAT) && expected.length == 4 && actual.length == 4) {
      return close(
          ByteBuffer.wrap(expected).getFloat(),
          ByteBuffer.wrap(actual).getFloat(),
          tolerances.floatingPointTolerance());
    }
    if (type.equals(DataTypes.TIMESTAMP) && expected.length == 8 && actual.length == 8) {
      long a = ByteBuffer.wrap(expected).getLong();
      long b = ByteBuffer.wrap(actual).getLong();
      return Math.abs(Math.subtractExact(a, b)) <= tolerances.timestampMsTolerance();
    }
    return false;
  }

  private static boolean close(double a, double b, double tolerance) {
    return (Double.isNaN(a) && Double.isNaN(b)) || Math.abs(a - b) <= tolerance;
  }

  /**
   * Null when the writetimes (µs; {@code actualWritetime} null when the cell has none) and TTLs
   * (seconds, 0 = none) are equal within the tolerances, else what differs.
   */
  static String sameTimes(
      long expectedWritetime,
      int expectedTtl,
      Long actualWritetime,
      int actualTtl,
      JobConfig.Validation tolerances) {
    StringBuilder out = new StringBuilder();
    if (expectedWritetime != TargetRow.NO_WRITETIME) {
      if (actualWritetime == null
          || Math.abs(expectedWritetime - actualWritetime)
              > tolerances.writetimeToleranceMillis() * 1000) {
        out.append("writetime expected ")
            .append(expectedWritetime)
            .append(" got ")
            .append(actualWritetime);
      }
    }
    long ttlToleranceSeconds = (tolerances.ttlToleranceMillis() + 999) / 1000;
    if ((expectedTtl == 0) != (actualTtl == 0)
        || Math.abs((long) expectedTtl - actualTtl) > ttlToleranceSeconds) {
      out.append(out.length() == 0 ? "" : ", ")
          .append("TTL expected ")
          .append(expectedTtl)
          .append(" got ")
          .append(actualTtl);
    }
    return out.length() == 0 ? null : out.toString();
  }
}
