package io.varve.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.api.kv.v1.IdempotencyToken;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdempotencyTokensTest {

  /** A clock that reads the instants it is given, in order. */
  static Clock reading(Instant... instants) {
    Deque<Instant> left = new ArrayDeque<>(List.of(instants));
    return new Clock() {
      @Override
      public java.time.ZoneId getZone() {
        return ZoneOffset.UTC;
      }

      @Override
      public Clock withZone(java.time.ZoneId zone) {
        return this;
      }

      @Override
      public Instant instant() {
        return left.pop();
      }
    };
  }

  @Test
  void
      generation_times_strictly_increase_at_the_microsecond_when_the_clock_repeats_or_steps_back() {
    Instant t = Instant.parse("2026-11-24T10:00:00.000100Z");
    IdempotencyTokens tokens =
        new IdempotencyTokens(reading(t, t, t.minusSeconds(1), t.plusNanos(999), t.plusMillis(5)));
    List<Instant> times = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      times.add(Times.instant(tokens.next().getGenerationTime()));
    }
    assertThat(times)
        .containsExactly(
            t,
            t.plusNanos(1000),
            t.plusNanos(2000),
            t.plusNanos(3000),
            // the clock is ahead again: its time, sub-microsecond digits dropped
            t.plusMillis(5));
  }

  @Test
  void nonces_are_128_random_bits_in_hex() {
    IdempotencyTokens tokens = new IdempotencyTokens();
    HashSet<String> seen = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      IdempotencyToken token = tokens.next();
      assertThat(token.getToken()).matches("[0-9a-f]{32}");
      seen.add(token.getToken());
    }
    assertThat(seen).hasSize(1000);
  }
}
