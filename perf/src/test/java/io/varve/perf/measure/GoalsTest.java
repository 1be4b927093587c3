package io.varve.perf.measure;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The verdicts of goals, and the ratios they are made of. */
class GoalsTest {

  private static final Goals GOALS =
      new Goals(
          List.of(
              new Goals.Goal("put.ratio", true, 0.8),
              new Goals.Goal("get.p99.ratio", false, 1.5),
              new Goals.Goal("page.p99.spread", false, 3),
              new Goals.Goal("read_amplification", false, 1.2)));

  @Test
  void prints_a_verdict_per_measured_goal_in_order_and_none_for_an_unmeasured_one() {
    Map<String, Double> measured = new LinkedHashMap<>();
    measured.put("read_amplification", 1.05);
    measured.put("put.ratio", 0.79);
    measured.put("page.p99.spread", 3.0);
    measured.put("get.p99.ratio", 1.2);

    assertThat(GOALS.verdicts(measured))
        .containsExactly(
            Map.entry("goal.put.ratio", "FAIL (0.790 >= 0.8)"),
            Map.entry("goal.get.p99.ratio", "PASS (1.200 <= 1.5)"),
            Map.entry("goal.page.p99.spread", "PASS (3.000 <= 3.0)"),
            Map.entry("goal.read_amplification", "PASS (1.050 <= 1.2)"),
            Map.entry("goals", "FAIL (3 of 4 met)"));
  }

  @Test
  void a_figure_that_could_not_be_computed_fails_its_goal() {
    assertThat(GOALS.verdicts(Map.of("get.p99.ratio", Double.NaN)))
        .containsExactly(
            Map.entry("goal.get.p99.ratio", "FAIL (NaN <= 1.5)"),
            Map.entry("goals", "FAIL (0 of 1 met)"));
    assertThat(GOALS.verdicts(Map.of("put.ratio", 0.8)))
        .containsExactly(
            Map.entry("goal.put.ratio", "PASS (0.800 >= 0.8)"),
            Map.entry("goals", "PASS (1 of 1 met)"));
  }

  @Test
  void spread_is_largest_over_smallest_and_ratio_refuses_a_zero_denominator() {
    assertThat(Goals.spread(List.of(2.0, 8.0, 4.0))).isEqualTo(4.0);
    assertThat(Goals.spread(List.of(0.0, 8.0))).isNaN();
    assertThat(Goals.ratio(3, 4)).isEqualTo(0.75);
    assertThat(Goals.ratio(3, 0)).isNaN();
  }
}
