package io.varve.bench.capacity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.bench.capacity.CapacitySearch.Outcome;
import io.varve.bench.capacity.CapacitySearch.Phase;
import io.varve.bench.capacity.CapacitySearch.Settings;
import io.varve.bench.capacity.CapacitySearch.Step;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class CapacitySearchTest {

  static final Settings DEFAULTS = new Settings(100, 1_000_000, 10, 2, 0.05, 20);

  @ParameterizedTest(name = "true limit {0} ops/s")
  @CsvSource({"150", "1000", "2049", "77777", "999999"})
  void the_search_lands_within_its_precision_below_a_sharp_limit(long limit) throws Exception {
    Outcome o = CapacitySearch.search(DEFAULTS, (i, phase, target) -> target <= limit);
    assertThat(o.capacity()).isLessThanOrEqualTo(limit).isGreaterThan((long) (limit * 0.95));
    assertThat(o.steps()).hasSizeLessThanOrEqualTo(20);
    assertThat(o.atMax()).isFalse();
  }

  @Test
  void the_ramp_doubles_then_the_bisection_halves_the_gap() throws Exception {
    Outcome o = CapacitySearch.search(DEFAULTS, (i, phase, target) -> target <= 1000);
    assertThat(o.steps())
        .extracting(Step::target)
        .startsWith(100L, 200L, 400L, 800L, 1600L, 1200L, 1000L, 1100L, 1050L);
    assertThat(o.steps()).extracting(Step::phase).contains(Phase.RAMP, Phase.BISECT);
    assertThat(o.capacity()).isEqualTo(1000);
  }

  @Test
  void an_sla_no_rate_meets_gives_zero_after_going_down_to_the_minimum() throws Exception {
    Outcome o = CapacitySearch.search(DEFAULTS, (i, phase, target) -> false);
    assertThat(o.capacity()).isZero();
    assertThat(o.steps()).extracting(Step::target).containsExactly(100L, 50L, 25L, 12L);
    assertThat(o.steps()).extracting(Step::phase).containsOnly(Phase.RAMP, Phase.DOWN);
  }

  @Test
  void a_limit_below_the_start_is_found_on_the_way_down() throws Exception {
    Outcome o = CapacitySearch.search(DEFAULTS, (i, phase, target) -> target <= 30);
    assertThat(o.capacity()).isBetween(29L, 30L);
  }

  @Test
  void holding_at_the_maximum_says_the_capacity_may_be_higher() throws Exception {
    Outcome o = CapacitySearch.search(new Settings(100, 500, 10, 2, 0.05, 20), (i, p, t) -> true);
    assertThat(o.capacity()).isEqualTo(500);
    assertThat(o.atMax()).isTrue();
    assertThat(o.steps()).extracting(Step::target).containsExactly(100L, 200L, 400L, 500L);
  }

  @Test
  void the_step_budget_bounds_the_runs() throws Exception {
    Outcome o =
        CapacitySearch.search(
            new Settings(100, 1_000_000, 10, 2, 0.001, 7), (i, p, t) -> t <= 12_345);
    assertThat(o.steps()).hasSize(7);
    assertThat(o.capacity()).isEqualTo(6400);
  }

  @Test
  void settings_out_of_order_are_refused() {
    assertThatThrownBy(() -> new Settings(100, 50, 10, 2, 0.05, 20))
        .isInstanceOf(IllegalArgumentException.class);
    assertThatThrownBy(() -> new Settings(100, 500, 10, 1, 0.05, 20))
        .isInstanceOf(IllegalArgumentException.class);
  }
}
