package io.varve.options;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A positive duration written as an integer and a unit: {@code 500ms}, {@code 30s}, {@code 5m},
 * {@code 1h}, {@code 7d}; at most 10000 days. Zero, fractions and bare numbers are refused.
 */
final class DurationType implements ValueType<Duration> {

  static final String EXPECTED =
      "a positive duration of at most 10000 days such as 5s (units: ms, s, m, h, d)";
  private static final Pattern TEXT = Pattern.compile("(\\d+)(ms|s|m|h|d)");
  private static final Duration MAX = Duration.ofDays(10_000);

  @Override
  public Duration parse(Object raw, String key) {
    Matcher m = TEXT.matcher(String.valueOf(raw).trim());
    if (!(raw instanceof String) || !m.matches() || m.group(1).length() > 12) {
      throw RejectedValue.expected(EXPECTED);
    }
    long n = Long.parseLong(m.group(1));
    Duration d =
        switch (m.group(2)) {
          case "ms" -> Duration.ofMillis(n);
          case "s" -> Duration.ofSeconds(n);
          case "m" -> Duration.ofMinutes(n);
          case "h" -> Duration.ofHours(n);
          default -> Duration.ofDays(n);
        };
    if (d.isZero() || d.compareTo(MAX) > 0) {
      throw RejectedValue.expected(EXPECTED);
    }
    return d;
  }

  @Override
  public String describe() {
    return "duration";
  }

  /** The largest unit that writes the duration exactly: {@code 36h}, {@code 1500ms}. */
  @Override
  public String format(Duration value) {
    long ms = value.toMillis();
    if (ms % 1000 != 0) {
      return ms + "ms";
    }
    long s = ms / 1000;
    if (s % 86_400 == 0) {
      return s / 86_400 + "d";
    }
    if (s % 3600 == 0) {
      return s / 3600 + "h";
    }
    return s % 60 == 0 ? s / 60 + "m" : s + "s";
  }
}
