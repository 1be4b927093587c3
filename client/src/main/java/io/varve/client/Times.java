package io.varve.client;

import com.google.protobuf.Timestamp;
import io.varve.api.timeseries.v1.TimeInterval;
import java.time.Instant;

/**
 * Instants as the API's timestamps.
 *
 * <p>Pass times as your code produces them, {@code Instant.now()} included: the server keeps event
 * times to the millisecond and truncates finer digits (microseconds on Linux), always the same way,
 * so a retried or hedged write stays idempotent; a read interval's start is truncated and its end
 * rounded up to the next millisecond, so every event written inside it is found. An event read back
 * therefore carries its time truncated to the millisecond (docs/api.md). KeyValue idempotency
 * tokens keep microseconds ({@link IdempotencyTokens}).
 */
public final class Times {

  private Times() {}

  /** {@code instant} as a protobuf timestamp, every digit kept. */
  public static Timestamp timestamp(Instant instant) {
    return Timestamp.newBuilder()
        .setSeconds(instant.getEpochSecond())
        .setNanos(instant.getNano())
        .build();
  }

  /** {@code timestamp} as an instant. */
  public static Instant instant(Timestamp timestamp) {
    return Instant.ofEpochSecond(timestamp.getSeconds(), timestamp.getNanos());
  }

  /** The interval [{@code start}, {@code end}) of a read or search. */
  public static TimeInterval interval(Instant start, Instant end) {
    return TimeInterval.newBuilder().setStart(timestamp(start)).setEnd(timestamp(end)).build();
  }
}
