package io.varve.core.slo;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class ReadDeadlineTest {

  private static final long MS = 1_000_000L;
  private final AtomicLong now = new AtomicLong(1_000 * MS);

  @Test
  void the_slo_max_less_a_tenth_for_the_answer_bounds_the_read() {
    ReadDeadline d = ReadDeadline.of(now.get(), Duration.ofMillis(50), Long.MAX_VALUE, now::get);

    assertThat(d.remainingNanos()).isEqualTo(45 * MS);
    now.addAndGet(40 * MS);
    assertThat(d.allows(5 * MS)).isTrue();
    assertThat(d.allows(6 * MS)).isFalse();
  }

  @Test
  void a_caller_deadline_before_the_max_bounds_the_read_instead() {
    ReadDeadline d =
        ReadDeadline.of(now.get(), Duration.ofSeconds(2), now.get() + 20 * MS, now::get);

    assertThat(d.remainingNanos()).isEqualTo(18 * MS);
  }

  @Test
  void the_margin_is_at_least_a_millisecond_and_at_most_a_tenth_of_a_second() {
    assertThat(ReadDeadline.margin(5 * MS)).isEqualTo(MS);
    assertThat(ReadDeadline.margin(60_000 * MS)).isEqualTo(100 * MS);
  }

  @Test
  void a_caller_deadline_already_past_allows_nothing() {
    ReadDeadline d = ReadDeadline.of(now.get(), Duration.ofSeconds(2), now.get() - MS, now::get);

    assertThat(d.allows(0)).isFalse();
  }
}
