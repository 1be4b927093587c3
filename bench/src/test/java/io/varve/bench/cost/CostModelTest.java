package io.varve.bench.cost;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.varve.bench.result.CapacitySummary;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The cost arithmetic against cases computed by hand, the reference benchmark's among them. */
class CostModelTest {

  /** Workload A as the reference ran it: half reads, half updates, strongly consistent reads. */
  static CapacitySummary workloadA(String binding, long capacity, Map<String, Long> counters) {
    return new CapacitySummary(
        CapacitySummary.FORMAT,
        binding + "-run",
        binding,
        "site.ycsb.workloads.CoreWorkload",
        Map.of("workload", "site.ycsb.workloads.CoreWorkload", "dynamodb.consistentReads", "true"),
        "read.p99<10ms",
        "INTENDED",
        capacity,
        false,
        60,
        10,
        0.05,
        List.of(),
        Map.of("READ", 50_000L, "UPDATE", 50_000L),
        counters);
  }

  static Pricing pricing(Pricing.PricedSystem... systems) {
    return new Pricing("USD", 730, "hand", "2026-11-29", List.of(systems));
  }

  static Pricing.PricedSystem dynamo(Pricing.DynamoDb d, double storageGb) {
    return new Pricing.PricedSystem("d", "dynamodb", d, storageGb, 0.25, 0);
  }

  @Test
  void the_item_size_rule_gives_a_default_ycsb_record_two_write_units_and_one_read_unit() {
    // ten fields "field0".."field9" of 100 bytes, key attribute y_id, "user" and 19 digits
    assertThat(CapacityUnits.itemBytes(Map.of())).isEqualTo(10 * 6 + 1000 + 4 + 23);
    CapacityUnits units = CapacityUnits.of(workloadA("dynamodb", 1000, Map.of()));
    assertThat(units.measured()).isFalse();
    assertThat(units.writePerOperation()).isEqualTo(0.5 * 2);
    assertThat(units.readPerOperation()).isEqualTo(0.5 * 1);
    // 900 bytes: one write unit; eventually consistent reads cost half
    CapacitySummary small =
        new CapacitySummary(
            1,
            "l",
            "dynamodb",
            "w",
            Map.of("fieldlength", "83"),
            "s",
            "INTENDED",
            1,
            false,
            1,
            1,
            0,
            List.of(),
            Map.of("READ", 1L, "UPDATE", 1L),
            Map.of());
    assertThat(CapacityUnits.itemBytes(small.properties())).isEqualTo(60 + 830 + 27);
    assertThat(CapacityUnits.of(small).writePerOperation()).isEqualTo(0.5);
    assertThat(CapacityUnits.of(small).readPerOperation()).isEqualTo(0.25);
  }

  @Test
  void measured_units_win_over_the_rule() {
    CapacityUnits units =
        CapacityUnits.of(
            workloadA(
                "dynamodb",
                1000,
                Map.of(
                    CapacityUnits.READ_MILLIUNITS, 1_500_000L,
                    CapacityUnits.WRITE_MILLIUNITS, 3_000_000L,
                    CapacityUnits.OPERATIONS, 1_000L)));
    assertThat(units.measured()).isTrue();
    assertThat(units.readPerOperation()).isEqualTo(1.5);
    assertThat(units.writePerOperation()).isEqualTo(3.0);
  }

  @Test
  void provisioned_dynamodb_at_the_reference_rate_is_the_reference_provisioning() {
    Pricing.DynamoDb provisioned =
        new Pricing.DynamoDb(Pricing.Mode.PROVISIONED, 0.75, 0.00065, 0.00013, 0, 0, 0, 0, 0, 0, 0);
    Pricing.PricedSystem system = dynamo(provisioned, 1100);
    CostModel.Cost cost =
        CostModel.cost(pricing(system), system, workloadA("dynamodb", 0, Map.of()), 120_000);
    // 60K updates x 2 WCU / 0.75 = 160K WCU; 60K reads x 1 RCU / 0.75 = 80K RCU
    assertThat(cost.sizedAs()).startsWith("160000 WCU and 80000 RCU provisioned, 75 % used");
    double monthly = 160_000 * 0.00065 * 730 + 80_000 * 0.00013 * 730 + 1100 * 0.25;
    assertThat(cost.monthly()).isCloseTo(monthly, within(1e-6));
    assertThat(cost.yearly()).isCloseTo(12 * monthly, within(1e-6));
    assertThat(cost.priced()).isTrue();
  }

  @Test
  void reserved_capacity_is_bought_in_hundreds_with_the_upfront_spread_over_its_term() {
    Pricing.DynamoDb reserved =
        new Pricing.DynamoDb(Pricing.Mode.RESERVED, 0.75, 0, 0, 1, 150, 0.0128, 30, 0.0025, 0, 0);
    Pricing.PricedSystem system = dynamo(reserved, 0);
    CostModel.Cost cost =
        CostModel.cost(pricing(system), system, workloadA("dynamodb", 0, Map.of()), 120_000);
    double upfront = 1600 * 150 + 800 * 30;
    double hourly = 1600 * 0.0128 + 800 * 0.0025;
    assertThat(cost.upfront()).isCloseTo(upfront, within(1e-6));
    assertThat(cost.yearly()).isCloseTo(upfront + hourly * 730 * 12, within(1e-6));
    assertThat(cost.monthly()).isCloseTo(cost.yearly() / 12, within(1e-6));

    // 2,002 ops/s: 1,001 updates/s x 2 units / 0.75 = 2,669.3 WCU, 27 blocks; 3 years spread it
    Pricing.DynamoDb threeYears =
        new Pricing.DynamoDb(Pricing.Mode.RESERVED, 0.75, 0, 0, 3, 300, 0, 60, 0, 0, 0);
    Pricing.PricedSystem three = dynamo(threeYears, 0);
    CostModel.Cost odd =
        CostModel.cost(pricing(three), three, workloadA("dynamodb", 0, Map.of()), 2_002);
    assertThat(odd.sizedAs()).startsWith("2700 WCU and 1400 RCU reserved for 3 year(s)");
    assertThat(odd.yearly()).isCloseTo((27 * 300 + 14 * 60) / 3.0, within(1e-6));
  }

  @Test
  void on_demand_bills_each_request_unit() {
    Pricing.DynamoDb onDemand =
        new Pricing.DynamoDb(Pricing.Mode.ON_DEMAND, 1, 0, 0, 0, 0, 0, 0, 0, 0.625, 0.125);
    Pricing.PricedSystem system = dynamo(onDemand, 0);
    CostModel.Cost cost =
        CostModel.cost(pricing(system), system, workloadA("dynamodb", 0, Map.of()), 1_000);
    double seconds = 730 * 3600.0;
    // 500 updates x 2 units and 500 reads x 1 unit per second
    double monthly = 1000 * seconds / 1e6 * 0.625 + 500 * seconds / 1e6 * 0.125;
    assertThat(cost.monthly()).isCloseTo(monthly, within(1e-6));
  }

  @Test
  void nodes_grow_with_the_throughput_from_the_measured_capacity_never_under_the_minimum() {
    Pricing.PricedSystem cluster =
        new Pricing.PricedSystem(
            "c", "cql", new Pricing.Nodes("i3.8xlarge", 2.496, 1, 3), 0, 0, 100);
    // 40,000 ops/s per node measured: 120K needs 3 nodes, the minimum
    CostModel.Cost three =
        CostModel.cost(pricing(cluster), cluster, workloadA("cql", 40_000, Map.of()), 120_000);
    assertThat(three.sizedAs()).startsWith("3 x i3.8xlarge");
    assertThat(three.monthly()).isCloseTo(3 * 2.496 * 730 + 100, within(1e-6));
    // 120,001 ops/s needs a fourth
    CostModel.Cost four =
        CostModel.cost(pricing(cluster), cluster, workloadA("cql", 40_000, Map.of()), 120_001);
    assertThat(four.sizedAs()).startsWith("4 x i3.8xlarge");
    // measured on two nodes: 80,000 ops/s is 40,000 per node
    Pricing.PricedSystem pair =
        new Pricing.PricedSystem("p", "cql", new Pricing.Nodes("n", 1, 2, 1), 0, 0, 0);
    assertThat(
            CostModel.cost(pricing(pair), pair, workloadA("cql", 80_000, Map.of()), 200_000)
                .sizedAs())
        .startsWith("5 x n");
  }

  @Test
  void a_search_whose_sla_held_at_no_rate_sizes_no_nodes() {
    Pricing.PricedSystem cluster =
        new Pricing.PricedSystem("c", "cql", new Pricing.Nodes("n", 1, 1, 3), 0, 0, 0);
    CostModel.Cost cost =
        CostModel.cost(pricing(cluster), cluster, workloadA("cql", 0, Map.of()), 1_000);
    assertThat(cost.priced()).isFalse();
    assertThat(cost.reason()).contains("held at no rate");
  }
}
