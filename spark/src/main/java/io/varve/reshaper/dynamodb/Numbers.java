package io.varve.reshaper.dynamodb;

import com.datastax.oss.driver.api.core.type.DataType;
import java.math.BigDecimal;
import java.math.BigInteger;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The N texts of CQL numbers and the numbers of N texts, within what DynamoDB holds: at most 38
 * significant digits, magnitudes from 1E-130 to 9.9999999999999999999999999999999999999E+125.
 */
final class Numbers {
  private static final int MAX_DIGITS = 38;
  private static final int MAX_EXPONENT = 125;
  private static final int MIN_EXPONENT = -130;
  private static final String RANGE =
      "DynamoDB's number range (magnitudes 1E-130 to 9.9999999999999999999999999999999999999E+125)";

  private Numbers() {}

  /** The N text of a decimal or varint, refused beyond DynamoDB's digits and range. */
  static String text(BigDecimal value, String type) {
    if (value.signum() == 0) {
      return "0";
    }
    BigDecimal stripped = value.stripTrailingZeros();
    if (stripped.precision() > MAX_DIGITS) {
      throw new UnmappableValueException(
          "a "
              + type
              + " of "
              + stripped.precision()
              + " digits: DynamoDB numbers hold at most 38");
    }
    int exponent = stripped.precision() - stripped.scale() - 1;
    if (exponent > MAX_EXPONENT || exponent < MIN_EXPONENT) {
      throw new UnmappableValueException(
          "a " + type + " " + Scalars.abbreviate(value.toString()) + " is outside " + RANGE);
    }
    return value.toString();
  }

  /** The N text of the shortest digits that read back as the same float or double. */
  static String floating(String digits, boolean finite, boolean zero, String type) {
    if (!finite) {
      throw new UnmappableValueException(digits + " has no DynamoDB number");
    }
    if (zero && digits.startsWith("-")) {
      throw new UnmappableValueException(
          "a " + type + " -0.0 has no DynamoDB number: DynamoDB keeps no sign of zero");
    }
    return text(new BigDecimal(digits).stripTrailingZeros(), type);
  }

  static BigDecimal number(AttributeValue a, DataType type, boolean nested) {
    if (a.type() != AttributeValue.Type.N) {
      throw Scalars.mismatch(a, type, nested, "N");
    }
    BigDecimal value;
    try {
      value = new BigDecimal(a.n());
    } catch (NumberFormatException e) {
      throw new UnmappableValueException(
          "N \""
              + Scalars.abbreviate(a.n())
              + "\" where "
              + Scalars.where(type, nested)
              + " expects a number");
    }
    int exponent = value.precision() - value.scale() - 1;
    if (value.signum() != 0 && (exponent > MAX_EXPONENT || exponent < MIN_EXPONENT)) {
      throw new UnmappableValueException(Scalars.describe(a) + " is outside " + RANGE);
    }
    return value;
  }

  /** The integer of an N, refused when not an integer or when it needs more than bits bits. */
  static BigInteger integer(AttributeValue a, DataType type, boolean nested, int bits) {
    BigInteger value;
    try {
      value = number(a, type, nested).toBigIntegerExact();
    } catch (ArithmeticException e) {
      throw Scalars.mismatch(a, type, nested, "an integer");
    }
    if (bits > 0 && value.bitLength() >= bits) {
      throw outOfRange(a, type);
    }
    return value;
  }

  /** The nearest float of an N, refused when beyond a float's range. */
  static Float toFloat(AttributeValue a, DataType type, boolean nested) {
    BigDecimal d = number(a, type, nested);
    float f = Float.parseFloat(a.n());
    if (Float.isInfinite(f) || (f == 0 && d.signum() != 0)) {
      throw outOfRange(a, type);
    }
    return f;
  }

  /** The nearest double of an N, refused when beyond a double's range. */
  static Double toDouble(AttributeValue a, DataType type, boolean nested) {
    BigDecimal d = number(a, type, nested);
    double f = Double.parseDouble(a.n());
    if (Double.isInfinite(f) || (f == 0 && d.signum() != 0)) {
      throw outOfRange(a, type);
    }
    return f;
  }

  static UnmappableValueException outOfRange(AttributeValue a, DataType type) {
    return new UnmappableValueException(
        Scalars.describe(a) + " is out of range for " + Kind.name(type));
  }
}
