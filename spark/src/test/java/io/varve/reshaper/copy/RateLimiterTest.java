package io.varve.reshaper.copy;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class RateLimiterTest {
  @Test
  void spreads_permits_evenly_over_time() {
    RateLimiter limiter = new RateLimiter(1000);
    long start = System.nanoTime();
    for (int i = 0; i < 30; i++) {
      limiter.acquire(100); // 3,000 permits at 1,000/s: about 3 s
    }
    double seconds = (System.nanoTime() - start) / 1e9;
    assertThat(seconds).isBetween(2.5, 5.0);
  }

  @Test
  void a_rate_of_zero_never_waits() {
    RateLimiter limiter = new RateLimiter(0);
    long start = System.nanoTime();
    limiter.acquire(1_000_000);
    assertThat((System.nanoTime() - start) / 1e9).isLessThan(0.5);
  }
}
