package io.varve.reshaper.job;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.reshaper.plan.TokenRange;
import io.varve.reshaper.plan.WorkUnit;
import java.util.List;
import org.junit.jupiter.api.Test;

class RangePipelineTest {

  @Test
  void units_per_task_keeps_four_tasks_a_slot_and_at_most_eight_units_a_task() {
    assertThat(RangePipeline.unitsPerTask(256, 2)).isEqualTo(8);
    assertThat(RangePipeline.unitsPerTask(40, 2)).isEqualTo(5);
    assertThat(RangePipeline.unitsPerTask(256, 64)).isEqualTo(1);
    assertThat(RangePipeline.unitsPerTask(3, 2)).isEqualTo(1);
    assertThat(RangePipeline.unitsPerTask(0, 0)).isEqualTo(1);
    assertThat(RangePipeline.unitsPerTask(Integer.MAX_VALUE, Integer.MAX_VALUE)).isEqualTo(1);
  }

  @Test
  void tasks_hold_every_unit_once_in_order_in_runs_of_consecutive_units() {
    List<WorkUnit> todo = List.copyOf(TokenRange.split(19));

    List<List<WorkUnit>> tasks = RangePipeline.tasks(todo, 8);

    assertThat(tasks).extracting(List::size).containsExactly(8, 8, 3);
    assertThat(tasks.stream().flatMap(List::stream).toList()).isEqualTo(todo);
  }
}
