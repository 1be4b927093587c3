package io.varve.options;

import java.math.BigInteger;
import java.util.function.LongFunction;

/**
 * A whole number within bounds, written as a number or as a string of digits. A bound may be
 * another option's value ({@link Option.Builder#atLeast}), resolved when the value is read.
 *
 * @param <N> {@code Integer} or {@code Long}
 */
final class IntegerType<N extends Number> implements ValueType<N> {

  private static final long MIB = 1024 * 1024;

  private final String unit;
  private final long min;
  private final long max;
  private final String minText;
  private final String maxText;
  private final LongFunction<N> box;

  IntegerType(String unit, long min, long max, LongFunction<N> box) {
    this(unit, min, max, Long.toString(min), Long.toString(max), box);
  }

  private IntegerType(
      String unit, long min, long max, String minText, String maxText, LongFunction<N> box) {
    this.unit = unit;
    this.min = min;
    this.max = max;
    this.minText = minText;
    this.maxText = maxText;
    this.box = box;
  }

  long min() {
    return min;
  }

  long max() {
    return max;
  }

  /** The same type with bounds resolved from other options. */
  IntegerType<N> within(long newMin, long newMax) {
    return new IntegerType<>(
        unit, newMin, newMax, Long.toString(newMin), Long.toString(newMax), box);
  }

  /** The same type, its bounds shown as words (another option's name) in the docs. */
  IntegerType<N> describedAs(String newMinText, String newMaxText) {
    return new IntegerType<>(unit, min, max, newMinText, newMaxText, box);
  }

  @Override
  public N parse(Object raw, String key) {
    long value;
    if (raw instanceof Integer
        || raw instanceof Long
        || raw instanceof Short
        || raw instanceof Byte) {
      value = ((Number) raw).longValue();
    } else if (raw instanceof BigInteger big && big.bitLength() < 64) {
      value = big.longValue();
    } else if (raw instanceof String text && text.trim().matches("-?\\d{1,18}")) {
      value = Long.parseLong(text.trim());
    } else {
      throw RejectedValue.expected("an integer in " + min + ".." + max);
    }
    if (value < min || value > max) {
      throw RejectedValue.showing(Long.toString(value), min + ".." + max);
    }
    return box.apply(value);
  }

  @Override
  public String describe() {
    return unit + ", " + minText + ".." + maxText;
  }

  @Override
  public String format(N value) {
    return value.toString();
  }

  @Override
  public String note(N value) {
    long v = value.longValue();
    return unit.equals("bytes") && v >= MIB && v % MIB == 0 ? v / MIB + " MiB" : "";
  }
}
