package io.varve.perf.dataplane;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** Which reads the delaying proxy holds back, and for how long. */
class DelayChoiceTest {

  private static final Duration MIN = Duration.ofMillis(50);
  private static final Duration MAX = Duration.ofMillis(200);

  @Test
  void delays_about_the_share_asked_each_within_the_range() {
    DelayChoice choice = new DelayChoice(0.1, MIN, MAX);
    SplittableRandom random = new SplittableRandom(7);
    int delayed = 0;
    for (int i = 0; i < 100_000; i++) {
      Duration d = choice.next(random);
      if (!d.isZero()) {
        delayed++;
        assertThat(d).isBetween(MIN, MAX);
      }
    }
    assertThat(delayed).isBetween(9_500, 10_500);
  }

  @Test
  void a_share_of_zero_delays_nothing_and_of_one_everything() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 1000; i++) {
      assertThat(new DelayChoice(0, MIN, MAX).next(random)).isZero();
      assertThat(new DelayChoice(1, MIN, MAX).next(random)).isBetween(MIN, MAX);
    }
  }

  @Test
  void refuses_a_share_outside_zero_to_one_and_an_inverted_range() {
    assertThatThrownBy(() -> new DelayChoice(1.5, MIN, MAX))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new DelayChoice(0.1, MAX, MIN))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
