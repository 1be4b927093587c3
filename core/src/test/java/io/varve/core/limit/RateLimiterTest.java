package io.varve.core.limit;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class RateLimiterTest {
  private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

  /** A clock that moves only when the limiter sleeps or the test says so. */
  private static final class FakeClock {
    long now = 1_000 * SECOND;
    final List<Long> sleeps = new ArrayList<>();

    RateLimiter limiter(double permitsPerSecond) {
      return new RateLimiter(
          permitsPerSecond,
          () -> now,
          nanos -> {
            sleeps.add(nanos);
            now += nanos;
          });
    }
  }

  @Test
  void spreads_permits_evenly_over_time() {
    FakeClock clock = new FakeClock();
    RateLimiter limiter = clock.limiter(1000);
    long start = clock.now;
    for (int i = 0; i < 30; i++) {
      limiter.acquire(100); // 3,000 permits at 1,000/s: 3 s
    }
    assertThat(clock.now - start).isEqualTo(3 * SECOND);
    assertThat(clock.sleeps).hasSize(30).allSatisfy(s -> assertThat(s).isEqualTo(SECOND / 10));
  }

  @Test
  void a_pause_carries_over_at_most_one_second_of_unused_rate() {
    FakeClock clock = new FakeClock();
    RateLimiter limiter = clock.limiter(1000);
    clock.now += 10 * SECOND; // idle for 10 s
    limiter.acquire(1000); // the carried-over second covers these
    assertThat(clock.sleeps).isEmpty();
    limiter.acquire(500); // then the rate applies again
    assertThat(clock.sleeps).containsExactly(SECOND / 2);
  }

  @Test
  void a_rate_of_zero_never_waits() {
    FakeClock clock = new FakeClock();
    clock.limiter(0).acquire(1_000_000);
    assertThat(clock.sleeps).isEmpty();
  }
}
