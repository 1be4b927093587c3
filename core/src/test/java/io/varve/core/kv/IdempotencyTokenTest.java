package io.varve.core.kv;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.core.error.InvalidFieldException;
import java.time.Instant;
import org.junit.jupiter.api.Test;

class IdempotencyTokenTest {

  static final Instant NOW = Instant.parse("2026-01-01T00:00:00Z");
  static final KvLimits L = KvLimits.DEFAULT;

  static IdempotencyToken at(Instant t, String nonce) {
    return IdempotencyToken.of(true, t.getEpochSecond(), t.getNano(), nonce, NOW, L);
  }

  @Test
  void the_drift_bounds_are_inclusive_and_a_microsecond_beyond_is_refused() {
    assertThat(at(NOW.minus(L.maxTokenAge()), "t").generationMicros())
        .isEqualTo(NOW.minus(L.maxTokenAge()).toEpochMilli() * 1000);
    assertThat(at(NOW.plus(L.maxTokenLead()), "t").generationMicros())
        .isEqualTo(NOW.plus(L.maxTokenLead()).toEpochMilli() * 1000);
    assertThatThrownBy(() -> at(NOW.minus(L.maxTokenAge()).minusNanos(1000), "t"))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> assertThat(e.field()).isEqualTo("idempotency_token.generation_time"))
        .hasMessageContaining("maxTokenAge");
    assertThatThrownBy(() -> at(NOW.plus(L.maxTokenLead()).plusNanos(1000), "t"))
        .hasMessageContaining("maxTokenLead");
  }

  @Test
  void the_generation_time_becomes_microseconds_truncating_nanoseconds() {
    assertThat(at(NOW.plusNanos(1_999), "t").generationMicros())
        .isEqualTo(NOW.toEpochMilli() * 1000 + 1);
  }

  @Test
  void missing_tokens_nonces_out_of_bounds_and_impossible_times_are_refused_naming_the_field() {
    assertThatThrownBy(() -> IdempotencyToken.of(false, 0, 0, "", NOW, L))
        .isInstanceOfSatisfying(
            InvalidFieldException.class, e -> assertThat(e.field()).isEqualTo("idempotency_token"));
    assertThatThrownBy(() -> at(NOW, ""))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e -> assertThat(e.field()).isEqualTo("idempotency_token.token"));
    assertThat(at(NOW, "t".repeat(KvLimits.MAX_TOKEN_CHARS)).token())
        .hasSize(KvLimits.MAX_TOKEN_CHARS);
    assertThatThrownBy(() -> at(NOW, "t".repeat(KvLimits.MAX_TOKEN_CHARS + 1)))
        .hasMessageContaining("1..128");
    for (long[] time :
        new long[][] {
          {0, 0},
          {-1, 0},
          {NOW.getEpochSecond(), -1},
          {NOW.getEpochSecond(), 1_000_000_000},
          // beyond any Instant: a gRPC Timestamp can carry it, JSON cannot
          {Long.MAX_VALUE, 0},
          {IdempotencyToken.MAX_SECONDS + 1, 0}
        }) {
      assertThatThrownBy(() -> IdempotencyToken.of(true, time[0], (int) time[1], "t", NOW, L))
          .isInstanceOfSatisfying(
              InvalidFieldException.class,
              e -> assertThat(e.field()).isEqualTo("idempotency_token.generation_time"));
    }
  }

  @Test
  void a_nonce_is_counted_in_characters_an_emoji_as_one_and_echoed_without_cutting_one() {
    String emoji = "\uD83D\uDE00";
    assertThat(at(NOW, emoji.repeat(KvLimits.MAX_TOKEN_CHARS)).token())
        .isEqualTo(emoji.repeat(KvLimits.MAX_TOKEN_CHARS));

    assertThatThrownBy(() -> at(NOW, emoji.repeat(KvLimits.MAX_TOKEN_CHARS + 1)))
        .isInstanceOfSatisfying(
            InvalidFieldException.class,
            e ->
                assertThat(e.getMessage())
                    .isEqualTo(
                        "idempotency_token.token: \""
                            + emoji.repeat(77)
                            + "...\" (expected: 1..128 characters (Unicode code points))"));
  }
}
