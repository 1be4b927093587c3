package io.varve.server.config;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.namespace.NamespaceBounds;
import java.time.Duration;

/** Conversions between protobuf and Java durations, with the positivity check config keys need. */
final class ConfigDurations {

  private ConfigDurations() {}

  static Duration positive(String field, com.google.protobuf.Duration value) {
    // a gRPC caller can send any seconds and nanos: protobuf's own conversions throw on invalid
    // ones
    if (!com.google.protobuf.util.Durations.isValid(value)) {
      throw new InvalidFieldException(
          field,
          "{seconds: " + value.getSeconds() + ", nanos: " + value.getNanos() + "}",
          "a valid duration (seconds within +-315576000000, nanos within +-999999999 with the sign of seconds)");
    }
    Duration d = Duration.ofSeconds(value.getSeconds(), value.getNanos());
    if (d.isNegative() || d.isZero()) {
      throw new InvalidFieldException(
          field, com.google.protobuf.util.Durations.toString(value), "a positive duration");
    }
    return d;
  }

  /** A positive duration of at most {@link NamespaceBounds#MAX_DURATION}. */
  static Duration bounded(String field, com.google.protobuf.Duration value) {
    return NamespaceBounds.duration(field, positive(field, value));
  }

  static com.google.protobuf.Duration of(Duration d) {
    return com.google.protobuf.Duration.newBuilder()
        .setSeconds(d.getSeconds())
        .setNanos(d.getNano())
        .build();
  }
}
