package io.varve.client;

import io.varve.api.kv.v1.IdempotencyToken;
import java.security.SecureRandom;
import java.time.Clock;
import java.time.Instant;
import java.util.HexFormat;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Generates the idempotency tokens of KeyValue mutations: a generation time and a random 128-bit
 * nonce (32 hex digits).
 *
 * <p>The server writes every cell of a mutation at the token's generation time, in microseconds,
 * and keeps per cell the write of the latest time (docs/key-value.md). So the times of one client
 * never go backwards and strictly increase at that precision, even when the wall clock steps back
 * or two calls fall in the same microsecond: of two mutations of this client, the later one wins.
 * Across clients, order is that of their clocks. Thread safe.
 */
public final class IdempotencyTokens {

  private static final HexFormat HEX = HexFormat.of();

  private final Clock clock;
  private final SecureRandom random = new SecureRandom();
  private final AtomicLong lastMicros = new AtomicLong(Long.MIN_VALUE);

  /** Tokens timed by the system clock. */
  public IdempotencyTokens() {
    this(Clock.systemUTC());
  }

  /** Tokens timed by {@code clock}. */
  public IdempotencyTokens(Clock clock) {
    this.clock = clock;
  }

  /** A new token: a generation time later than any this generator gave, and a fresh nonce. */
  public IdempotencyToken next() {
    byte[] nonce = new byte[16];
    random.nextBytes(nonce);
    long micros = nextMicros();
    Instant time =
        Instant.ofEpochSecond(
            Math.floorDiv(micros, 1_000_000L), Math.floorMod(micros, 1_000_000L) * 1000L);
    return IdempotencyToken.newBuilder()
        .setGenerationTime(Times.timestamp(time))
        .setToken(HEX.formatHex(nonce))
        .build();
  }

  private long nextMicros() {
    Instant now = clock.instant();
    long micros =
        Math.addExact(Math.multiplyExact(now.getEpochSecond(), 1_000_000L), now.getNano() / 1000);
    return lastMicros.accumulateAndGet(micros, (last, candidate) -> Math.max(last + 1, candidate));
  }
}
