package io.varve.core.slo;

import io.varve.core.error.InvalidFieldException;
import java.time.Duration;
import java.util.Optional;

/**
 * The latency objectives of one endpoint, in the reference texts' shape {@code latency {target,
 * max}}: a client hedges a call around {@code target} and gives up around {@code max}; a read stops
 * before {@code max} and returns what it has with a page token.
 *
 * @param target the latency a call should usually meet; {@link #MIN}..{@code max}
 * @param max the latency a call must not exceed; {@code target}..{@link #CEILING}
 */
public record LatencySlo(Duration target, Duration max) {

  /** The smallest target or max: the server's timers work in milliseconds. */
  public static final Duration MIN = Duration.ofMillis(1);

  /**
   * The largest max: the server's request timeout, past which every request is answered
   * DEADLINE_EXCEEDED whatever its objectives.
   */
  public static final Duration CEILING = Duration.ofSeconds(60);

  /**
   * Validates a configured pair; {@code field} is the path of its {@code latency} mapping, and each
   * error names {@code field.target} or {@code field.max}.
   */
  public static LatencySlo of(String field, Optional<Duration> target, Optional<Duration> max) {
    Duration t = target.orElseThrow(() -> missing(field + ".target"));
    Duration m = max.orElseThrow(() -> missing(field + ".max"));
    bounded(field + ".max", m);
    bounded(field + ".target", t);
    if (t.compareTo(m) > 0) {
      throw new InvalidFieldException(
          field + ".target", shown(t), "at most the max " + shown(m) + " (a target above max)");
    }
    return new LatencySlo(t, m);
  }

  private static void bounded(String field, Duration d) {
    if (d.compareTo(MIN) < 0 || d.compareTo(CEILING) > 0) {
      throw new InvalidFieldException(
          field, shown(d), shown(MIN) + ".." + shown(CEILING) + " (a positive duration)");
    }
  }

  private static InvalidFieldException missing(String field) {
    return InvalidFieldException.of(field, "missing (expected: a duration such as \"0.05s\")");
  }

  /** A duration as the configuration writes it: seconds with a decimal fraction, e.g. 0.05s. */
  public static Object shown(Duration d) {
    return InvalidFieldException.shown(
        new java.math.BigDecimal(d.toNanos()).movePointLeft(9).stripTrailingZeros().toPlainString()
            + "s");
  }
}
