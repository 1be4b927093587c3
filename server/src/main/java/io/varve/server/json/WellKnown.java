package io.varve.server.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.time.Rfc3339;
import java.math.BigDecimal;
import java.time.Instant;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** JSON forms of google.protobuf.Timestamp (RFC 3339) and Duration ("129600s", "36h"). */
final class WellKnown {

  // at most 18 integer digits: more is out of range in any unit, and a long run of digits would
  // cost quadratic time to read as a BigDecimal
  private static final Pattern DURATION =
      Pattern.compile("(\\d{1,18}(?:\\.\\d{1,9})?)(ms|s|m|h|d)");

  private WellKnown() {}

  /** A time in the strict RFC 3339 form ({@link Rfc3339}); nothing out of range is rolled over. */
  static Timestamp timestamp(JsonNode value, String path) {
    if (!value.isTextual()) {
      throw new InvalidFieldException(
          path, InvalidFieldException.shown(value.toString()), Rfc3339.EXPECTED);
    }
    try {
      Instant instant = Rfc3339.parse(value.textValue());
      return Timestamp.newBuilder()
          .setSeconds(instant.getEpochSecond())
          .setNanos(instant.getNano())
          .build();
    } catch (Rfc3339.InvalidTimeException e) {
      throw new InvalidFieldException(
          path,
          InvalidFieldException.shown(value.toString()),
          Rfc3339.EXPECTED + "; " + e.getMessage());
    }
  }

  static Duration duration(JsonNode value, String path) {
    Matcher m = value.isTextual() ? DURATION.matcher(value.textValue().trim()) : null;
    if (m == null || !m.matches()) {
      throw new InvalidFieldException(
          path,
          InvalidFieldException.shown(value.toString()),
          "a duration such as \"129600s\" (units: ms, s, m, h, d)");
    }
    BigDecimal amount = new BigDecimal(m.group(1));
    BigDecimal nanosPerUnit =
        switch (m.group(2)) {
          case "ms" -> BigDecimal.valueOf(1_000_000L);
          case "s" -> BigDecimal.valueOf(1_000_000_000L);
          case "m" -> BigDecimal.valueOf(60_000_000_000L);
          case "h" -> BigDecimal.valueOf(3_600_000_000_000L);
          default -> BigDecimal.valueOf(86_400_000_000_000L);
        };
    BigDecimal nanos = amount.multiply(nanosPerUnit);
    BigDecimal[] split = nanos.divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
    if (split[0].compareTo(BigDecimal.valueOf(315_576_000_000L)) > 0) {
      throw new InvalidFieldException(
          path, InvalidFieldException.shown(value.toString()), "a duration of at most 10000 years");
    }
    return Duration.newBuilder()
        .setSeconds(split[0].longValue())
        .setNanos(split[1].intValue())
        .build();
  }
}
