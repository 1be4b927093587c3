package io.varve.perf.migrate;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class MigrateBenchmarkTest {

  @Test
  void the_figure_of_a_phase_is_the_median_of_its_repetitions() {
    assertThat(MigrateBenchmark.median(new double[] {4.0})).isEqualTo(4.0);
    assertThat(MigrateBenchmark.median(new double[] {9.0, 1.0, 5.0})).isEqualTo(5.0);
    assertThat(MigrateBenchmark.median(new double[] {9.0, 1.0, 5.0, 2.0})).isEqualTo(3.5);
  }
}
