package io.varve.client.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class BackoffTest {

  @Test
  void waits_are_drawn_below_a_bound_that_doubles_up_to_the_max() {
    Backoff backoff = new Backoff(Duration.ofMillis(10), Duration.ofMillis(50), 5);
    long[] bounds = {10, 20, 40, 50, 50};
    for (int retry = 1; retry <= bounds.length; retry++) {
      long max = 0;
      for (int i = 0; i < 2000; i++) {
        long wait = backoff.delayNanos(retry);
        assertThat(wait).isBetween(0L, Duration.ofMillis(bounds[retry - 1]).toNanos());
        max = Math.max(max, wait);
      }
      // full jitter: the draws reach well into the upper half of the bound
      assertThat(max).isGreaterThan(Duration.ofMillis(bounds[retry - 1]).toNanos() / 2);
    }
  }

  @Test
  void bounds_out_of_order_are_refused() {
    assertThatThrownBy(() -> new Backoff(Duration.ofMillis(50), Duration.ofMillis(10), 1))
        .hasMessageContaining("initial <= max");
    assertThatThrownBy(() -> new Backoff(Duration.ZERO, Duration.ZERO, -1))
        .hasMessageContaining("retries >= 0");
  }
}
