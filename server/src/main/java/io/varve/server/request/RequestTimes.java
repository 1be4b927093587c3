package io.varve.server.request;

import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.TimeInterval;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.time.Rfc3339;
import java.time.Instant;
import java.util.function.Supplier;

/**
 * The times of a request as the server takes them: present, of millisecond precision, in the years
 * 1970..9999. A gRPC client sends {@code seconds} and {@code nanos} as it likes, so both are
 * checked here rather than trusted (an HTTP/JSON time was already parsed by {@link Rfc3339}).
 */
public final class RequestTimes {

  /** 9999-12-31T23:59:59Z. */
  private static final long MAX_SECONDS = 253_402_300_799L;

  private static final int MAX_NANOS = 999_999_999;

  /** 10,000 years, the range of google.protobuf.Duration. */
  private static final long MAX_DURATION_SECONDS = 315_576_000_000L;

  private RequestTimes() {}

  /**
   * Epoch milliseconds of {@code t}, the value of {@code field}, which must be present ({@code t}
   * not null).
   */
  public static long millis(Timestamp t, String field) {
    return millis(t, () -> field);
  }

  /** As {@link #millis(Timestamp, String)}, the field's name made only for an error. */
  public static long millis(Timestamp t, Supplier<String> field) {
    if (t == null) {
      throw InvalidFieldException.of(field.get(), "missing (expected: " + Rfc3339.EXPECTED + ")");
    }
    if (t.getNanos() < 0 || t.getNanos() > MAX_NANOS) {
      throw new InvalidFieldException(
          field.get(),
          InvalidFieldException.shown(shown(t)),
          "nanos in 0.." + MAX_NANOS + ", a multiple of 1000000 (millisecond precision)");
    }
    if (t.getSeconds() < 0 || t.getSeconds() > MAX_SECONDS) {
      throw new InvalidFieldException(
          field.get(),
          InvalidFieldException.shown(shown(t)),
          "a time between 1970-01-01T00:00:00Z and 9999-12-31T23:59:59.999Z");
    }
    if (t.getNanos() % 1_000_000 != 0) {
      throw new InvalidFieldException(
          field.get(),
          InvalidFieldException.shown(shown(t)),
          "a time with at most millisecond precision");
    }
    return t.getSeconds() * 1000 + t.getNanos() / 1_000_000;
  }

  /**
   * [from, to) in epoch milliseconds of a request's {@code timeInterval}, which must be present and
   * non-empty.
   */
  public static long[] interval(boolean present, TimeInterval interval) {
    if (!present) {
      throw InvalidFieldException.of(
          "timeInterval", "missing (expected: {\"start\": ..., \"end\": ...})");
    }
    long from = millis(interval.hasStart() ? interval.getStart() : null, "timeInterval.start");
    long to = millis(interval.hasEnd() ? interval.getEnd() : null, "timeInterval.end");
    if (to <= from) {
      throw new InvalidFieldException(
          "timeInterval.end",
          InvalidFieldException.shown(shown(interval.getEnd())),
          "after timeInterval.start (the interval is [start, end))");
    }
    return new long[] {from, to};
  }

  /**
   * The span {@code d}, the value of {@code field}, within protobuf's range for a Duration (±10,000
   * years).
   */
  public static java.time.Duration duration(com.google.protobuf.Duration d, String field) {
    if (d.getSeconds() < -MAX_DURATION_SECONDS
        || d.getSeconds() > MAX_DURATION_SECONDS
        || d.getNanos() < -MAX_NANOS
        || d.getNanos() > MAX_NANOS) {
      throw new InvalidFieldException(
          field,
          InvalidFieldException.shown(
              "{seconds: " + d.getSeconds() + ", nanos: " + d.getNanos() + "}"),
          "a duration of at most 10000 years, nanos in -" + MAX_NANOS + ".." + MAX_NANOS);
    }
    return java.time.Duration.ofSeconds(d.getSeconds(), d.getNanos());
  }

  /**
   * The time in RFC 3339 when it is one, else its two numbers: never fails, whatever a client sent.
   */
  private static String shown(Timestamp t) {
    if (t.getNanos() >= 0
        && t.getNanos() <= MAX_NANOS
        && t.getSeconds() >= 0
        && t.getSeconds() <= MAX_SECONDS) {
      return Instant.ofEpochSecond(t.getSeconds(), t.getNanos()).toString();
    }
    return "{seconds: " + t.getSeconds() + ", nanos: " + t.getNanos() + "}";
  }
}
