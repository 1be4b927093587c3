package io.varve.core.time;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Strict parsing of RFC 3339 {@code date-time} values ({@code 2024-10-03T21:24:23.988Z}, {@code
 * 2024-10-03T23:24:23+02:00}), the one form of time the API accepts.
 *
 * <p>Every field is checked against its range instead of being rolled over: {@code 2025-02-30},
 * hour {@code 24}, minute or second {@code 60} and offsets beyond {@code ±23:59} are refused, where
 * lenient parsers silently move them to another instant. Leap seconds ({@code :60}) are refused
 * because no API time type can hold them. {@code T} and {@code Z} may be lower case (RFC 3339,
 * section 5.6); {@code -00:00} means UTC. The fraction has 1 to 9 digits (nanoseconds).
 *
 * <p>Stateless and thread-safe.
 */
public final class Rfc3339 {

  /** An example shown in error messages. */
  public static final String EXAMPLE = "2024-10-03T21:24:23.988Z";

  /** What a caller should send, for error messages. */
  public static final String EXPECTED =
      "an RFC 3339 time such as \"" + EXAMPLE + "\" or \"2024-10-03T23:24:23+02:00\"";

  private static final Pattern FORM =
      Pattern.compile(
          "(\\d{4})-(\\d{2})-(\\d{2})[Tt](\\d{2}):(\\d{2}):(\\d{2})(?:\\.(\\d+))?(?:[Zz]|([+-])(\\d{2}):(\\d{2}))");

  /**
   * Longest text worth matching: a 9-digit fraction and an offset; longer text is refused unread.
   */
  private static final int MAX_LENGTH = 35;

  private Rfc3339() {}

  /** A text that is not a valid RFC 3339 time; the message says what is wrong with it. */
  public static final class InvalidTimeException extends IllegalArgumentException {
    InvalidTimeException(String problem) {
      super(problem);
    }
  }

  /**
   * The instant {@code text} denotes.
   *
   * @throws InvalidTimeException when {@code text} is not an RFC 3339 date-time, or names a day,
   *     hour, minute, second or offset that does not exist
   */
  public static Instant parse(String text) {
    Matcher m = text.length() <= MAX_LENGTH ? FORM.matcher(text) : null;
    if (m == null || !m.matches()) {
      throw new InvalidTimeException(
          "not of the form YYYY-MM-DDTHH:MM:SS[.fraction](Z|+HH:MM|-HH:MM)");
    }
    int year = Integer.parseInt(m.group(1));
    int month = within(m.group(2), 1, 12, "month");
    LocalDate firstOfMonth = LocalDate.of(year, month, 1);
    int day = Integer.parseInt(m.group(3));
    if (day < 1 || day > firstOfMonth.lengthOfMonth()) {
      throw new InvalidTimeException(
          "day "
              + m.group(3)
              + " does not exist in "
              + m.group(1)
              + "-"
              + m.group(2)
              + ", which has "
              + firstOfMonth.lengthOfMonth()
              + " days");
    }
    int hour = within(m.group(4), 0, 23, "hour");
    int minute = within(m.group(5), 0, 59, "minute");
    int second = within(m.group(6), 0, 59, "second");
    String fraction = m.group(7);
    if (fraction != null && fraction.length() > 9) {
      throw new InvalidTimeException("fraction ." + fraction + " has more than 9 digits");
    }
    int nanos = fraction == null ? 0 : Integer.parseInt((fraction + "00000000").substring(0, 9));
    long offsetSeconds = 0;
    if (m.group(8) != null) {
      int offsetHours = within(m.group(9), 0, 23, "offset hour");
      int offsetMinutes = within(m.group(10), 0, 59, "offset minute");
      offsetSeconds =
          (m.group(8).equals("-") ? -1L : 1L) * (offsetHours * 3600L + offsetMinutes * 60L);
    }
    long local =
        firstOfMonth.withDayOfMonth(day).atTime(hour, minute, second).toEpochSecond(ZoneOffset.UTC);
    return Instant.ofEpochSecond(local - offsetSeconds, nanos);
  }

  private static int within(String digits, int min, int max, String name) {
    int value = Integer.parseInt(digits);
    if (value < min || value > max) {
      throw new InvalidTimeException(
          name + " " + digits + " is out of range " + String.format("%02d..%02d", min, max));
    }
    return value;
  }
}
