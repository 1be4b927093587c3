package io.varve.perf.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The evenness figures of the burst's per-second write rate. */
class RateEvennessTest {

  @Test
  void a_steady_rate_has_no_deviation() {
    RateEvenness steady = RateEvenness.of(List.of(1000L, 1000L, 1000L));

    assertThat(steady.seconds()).isEqualTo(3);
    assertThat(steady.mean()).isEqualTo(1000.0);
    assertThat(steady.cv()).isZero();
    assertThat(steady.maxDeviation()).isZero();
  }

  @Test
  void max_deviation_is_the_farthest_second_from_the_mean_as_a_share_of_it() {
    // mean 1000; the last second is 300 below it, the first 100 above
    RateEvenness uneven = RateEvenness.of(List.of(1100L, 1100L, 1100L, 700L));

    assertThat(uneven.mean()).isEqualTo(1000.0);
    assertThat(uneven.maxDeviation()).isCloseTo(0.3, within(1e-9));
    // population standard deviation: sqrt((3 * 100^2 + 300^2) / 4) = sqrt(30000)
    assertThat(uneven.cv()).isCloseTo(Math.sqrt(30_000) / 1000, within(1e-9));
  }

  @Test
  void no_second_or_no_event_gives_no_figure() {
    assertThat(RateEvenness.of(List.of()).maxDeviation()).isNaN();
    assertThat(RateEvenness.of(List.of(0L, 0L)).cv()).isNaN();
  }
}
