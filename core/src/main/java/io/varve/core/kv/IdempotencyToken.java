package io.varve.core.kv;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.text.Characters;
import java.time.Duration;
import java.time.Instant;

/**
 * A mutation's identity and order: its generation time becomes the Cassandra write timestamp of
 * every cell it writes, so last write wins by the client's generation time, not by arrival.
 *
 * @param generationMicros microseconds since the epoch
 * @param token the client's nonce
 */
public record IdempotencyToken(long generationMicros, String token) {

  /** 9999-12-31T23:59:59Z, the latest time a protobuf Timestamp may hold. */
  static final long MAX_SECONDS = 253_402_300_799L;

  static final String FIELD = "idempotency_token";

  /**
   * A validated token: present, a nonce of 1..{@value KvLimits#MAX_TOKEN_CHARS} characters and a
   * generation time within the drift bounds around {@code now}.
   */
  public static IdempotencyToken of(
      boolean present, long seconds, int nanos, String token, Instant now, KvLimits limits) {
    if (!present) {
      throw InvalidFieldException.of(FIELD, "missing (expected: {generation_time, token})");
    }
    if (token.isEmpty() || Characters.count(token) > KvLimits.MAX_TOKEN_CHARS) {
      throw new InvalidFieldException(
          FIELD + ".token",
          token,
          "1.." + KvLimits.MAX_TOKEN_CHARS + " characters (Unicode code points)");
    }
    String time = FIELD + ".generation_time";
    // the range of a protobuf Timestamp: beyond it no Instant (nor microsecond count) holds it
    if (seconds <= 0 || seconds > MAX_SECONDS || nanos < 0 || nanos > 999_999_999) {
      throw new InvalidFieldException(
          time,
          seconds + "s " + nanos + "ns",
          "a time after 1970 and before year 10000 (the client's clock)");
    }
    Instant generated = Instant.ofEpochSecond(seconds, nanos);
    Duration drift = Duration.between(now, generated);
    // not drift.negated(): it goes through BigDecimal, on every write
    if (Duration.between(generated, now).compareTo(limits.maxTokenAge()) > 0) {
      throw new InvalidFieldException(
          time,
          generated,
          "at most kv.limits.maxTokenAge ("
              + limits.maxTokenAge().toSeconds()
              + "s) before the server's clock "
              + now
              + ": an older write would be silently discarded by newer ones");
    }
    if (drift.compareTo(limits.maxTokenLead()) > 0) {
      throw new InvalidFieldException(
          time,
          generated,
          "at most kv.limits.maxTokenLead ("
              + limits.maxTokenLead().toSeconds()
              + "s) after the server's clock "
              + now
              + ": a write in the future would shadow every write until then");
    }
    return new IdempotencyToken(seconds * 1_000_000L + nanos / 1000, token);
  }
}
