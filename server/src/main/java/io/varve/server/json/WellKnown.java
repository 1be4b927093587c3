package io.varve.server.json;

import com.fasterxml.jackson.databind.JsonNode;
import com.google.protobuf.Duration;
import com.google.protobuf.Timestamp;
import com.google.protobuf.util.Timestamps;
import io.varve.core.error.InvalidFieldException;
import java.math.BigDecimal;
import java.text.ParseException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** JSON forms of google.protobuf.Timestamp (RFC 3339) and Duration ("129600s", "36h"). */
final class WellKnown {

  private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d{1,9})?)(ms|s|m|h|d)");

  private WellKnown() {}

  static Timestamp timestamp(JsonNode value, String path) {
    if (value.isTextual()) {
      try {
        return Timestamps.parse(value.textValue());
      } catch (ParseException | IllegalArgumentException e) {
        // fall through
      }
    }
    throw new InvalidFieldException(path, InvalidFieldException.shown(value.toString()),
        "an RFC 3339 time in UTC such as \"2024-10-03T21:24:23.988Z\"");
  }

  static Duration duration(JsonNode value, String path) {
    Matcher m = value.isTextual() ? DURATION.matcher(value.textValue().trim()) : null;
    if (m == null || !m.matches()) {
      throw new InvalidFieldException(path, InvalidFieldException.shown(value.toString()),
          "a duration such as \"129600s\" (units: ms, s, m, h, d)");
    }
    BigDecimal amount = new BigDecimal(m.group(1));
    BigDecimal nanosPerUnit = switch (m.group(2)) {
      case "ms" -> BigDecimal.valueOf(1_000_000L);
      case "s" -> BigDecimal.valueOf(1_000_000_000L);
      case "m" -> BigDecimal.valueOf(60_000_000_000L);
      case "h" -> BigDecimal.valueOf(3_600_000_000_000L);
      default -> BigDecimal.valueOf(86_400_000_000_000L);
    };
    BigDecimal nanos = amount.multiply(nanosPerUnit);
    BigDecimal[] split = nanos.divideAndRemainder(BigDecimal.valueOf(1_000_000_000L));
    if (split[0].compareTo(BigDecimal.valueOf(315_576_000_000L)) > 0) {
      throw new InvalidFieldException(path, InvalidFieldException.shown(value.toString()), "a duration of at most 10000 years");
    }
    return Duration.newBuilder().setSeconds(split[0].longValue()).setNanos(split[1].intValue()).build();
  }
}
