package io.varve.server.buffer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class DrainWindowTest {

  private static final long MS = 1_000_000L;

  /** Feeds {@code n} slices written in {@code millis}, each with the whole window in flight. */
  private static void written(DrainWindow w, int n, long millis) {
    for (int i = 0; i < n; i++) {
      w.written(i * MS, millis * MS, w.slices(), false);
    }
  }

  @Test
  void a_store_that_keeps_its_latency_gets_more_slices_up_to_the_largest_window() {
    DrainWindow w = new DrainWindow();
    assertThat(w.slices()).isEqualTo(DrainWindow.INITIAL_SLICES);
    written(w, 20, 20);
    assertThat(w.slices()).isGreaterThan(DrainWindow.INITIAL_SLICES);
    written(w, 2_000, 20);
    assertThat(w.slices()).isEqualTo(DrainWindow.MAX_SLICES);
  }

  @Test
  void a_store_that_slows_down_gets_fewer_slices_at_once() {
    DrainWindow w = new DrainWindow();
    written(w, 2_000, 20);
    int before = w.slices();
    written(w, 30, 400);
    assertThat(w.slices())
        .as("twenty times the usual latency: the window shrinks")
        .isLessThan(before / 2);
    assertThat(w.latencyMillis()).isEqualTo(400.0);
  }

  @Test
  void the_window_does_not_grow_while_the_drain_uses_less_than_half_of_it() {
    DrainWindow w = new DrainWindow();
    for (int i = 0; i < 500; i++) {
      w.written(i * MS, 20 * MS, 1, false);
    }
    assertThat(w.slices()).isEqualTo(DrainWindow.INITIAL_SLICES);
  }

  @Test
  void the_window_never_falls_below_two_slices() {
    DrainWindow w = new DrainWindow();
    written(w, 100, 10);
    for (long millis = 20; millis < 100_000; millis *= 2) {
      written(w, 10, millis);
    }
    assertThat(w.slices()).isEqualTo(DrainWindow.MIN_SLICES);
  }
}
