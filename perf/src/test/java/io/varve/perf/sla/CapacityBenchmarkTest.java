package io.varve.perf.sla;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The cost lines of {@code bench cost} as the one-key figures {@code perf capacity} prints. */
class CapacityBenchmarkTest {

  @Test
  void each_system_gets_keys_of_its_own() {
    assertThat(
            CapacityBenchmark.costFigures(
                "cost.monthly=5466.24 system=cassandra-3x-i3.8xlarge yearly=65594.88"))
        .isEqualTo(
            "cost.cassandra-3x-i3.8xlarge.monthly=5466.24"
                + " cost.cassandra-3x-i3.8xlarge.yearly=65594.88"
                + System.lineSeparator());
    assertThat(
            CapacityBenchmark.costFigures(
                "cost.ratio=7.38 system=dynamodb-provisioned cheapest=cassandra-3x-i3.8xlarge"))
        .isEqualTo("cost.dynamodb-provisioned.ratio=7.38" + System.lineSeparator());
    assertThat(CapacityBenchmark.costFigures("cost: 3125 ops/s, prices in USD")).isEmpty();
    assertThat(CapacityBenchmark.costFigures("system  binding  capacity")).isEmpty();
  }
}
