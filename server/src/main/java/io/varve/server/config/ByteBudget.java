package io.varve.server.config;

import io.varve.options.RejectedValue;
import io.varve.options.ValueType;
import java.util.OptionalLong;

/** A number of bytes within bounds, or {@code auto} (empty) for a budget derived from the heap. */
final class ByteBudget implements ValueType<OptionalLong> {

  private final long min;
  private final long max;

  ByteBudget(long min, long max) {
    this.min = min;
    this.max = max;
  }

  @Override
  public OptionalLong parse(Object raw, String key) {
    if (raw instanceof java.util.Map || raw instanceof java.util.List) {
      throw RejectedValue.expected("a string");
    }
    String value = String.valueOf(raw).trim();
    if (value.equals("auto")) {
      return OptionalLong.empty();
    }
    String expected = "auto or a number of bytes in " + min + ".." + max;
    if (!value.matches("\\d{1,13}")) {
      throw RejectedValue.showing(value, expected);
    }
    long bytes = Long.parseLong(value);
    if (bytes < min || bytes > max) {
      throw RejectedValue.showing(Long.toString(bytes), expected);
    }
    return OptionalLong.of(bytes);
  }

  @Override
  public String describe() {
    return "bytes, " + min + ".." + max + ", or `auto`";
  }

  @Override
  public String format(OptionalLong value) {
    return value.isPresent() ? Long.toString(value.getAsLong()) : "auto";
  }
}
