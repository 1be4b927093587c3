package io.varve.bench.binding.dynamodb;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.bench.binding.BindingHarness;
import io.varve.bench.cost.CapacityUnits;
import io.varve.bench.engine.BenchSpec;
import io.varve.bench.load.LoaderCpu;
import io.varve.bench.result.RunResult;
import io.varve.bench.result.SecondResult;
import io.varve.local.testing.TestDynamoDb;
import java.util.Properties;
import java.util.UUID;
import org.junit.jupiter.api.Test;

/**
 * The capacity side of the {@code dynamodb} binding on a real DynamoDB Local: the units DynamoDB
 * reports consumed, per operation and per second, and the client's model of provisioned capacity
 * that throttles, and whose throttles the SDK retries, where DynamoDB Local never would.
 */
class DynamoDbCapacityIT {

  static Properties load(String table, int records) {
    Properties p = BindingHarness.workloadA(records, 0);
    // YCSB's record: ten fields of 100 bytes, about 1.1 KB with the key and the names
    p.setProperty("fieldcount", "10");
    p.setProperty("fieldlength", "100");
    p.setProperty("insertcount", String.valueOf(records));
    p.setProperty("dynamodb.endpoint", TestDynamoDb.endpoint());
    p.setProperty("dynamodb.create", "true");
    p.setProperty("table", table);
    return p;
  }

  @Test
  void a_record_of_1_1_kb_consumes_two_write_units_and_the_run_shows_them_per_second() {
    RunResult run =
        BindingHarness.run(
            "dynamodb",
            BenchSpec.Phase.LOAD,
            load("cap_" + UUID.randomUUID().toString().substring(0, 8), 200));

    assertThat(run.operations().get("INSERT").count()).isEqualTo(200);
    long operations = run.counters().get(CapacityUnits.OPERATIONS);
    assertThat(operations).isEqualTo(200);
    // the item-size rule, as DynamoDB reports it: one write unit per started KiB
    assertThat(run.counters().get(CapacityUnits.WRITE_MILLIUNITS)).isEqualTo(2_000L * operations);
    assertThat(run.counters().get(CapacityUnits.READ_MILLIUNITS)).isZero();
    assertThat(run.counters().get("modelled_throttles")).isZero();
    // per second in the timeline, and the loader's own CPU beside the operations
    assertThat(
            run.timeline().stream()
                .mapToDouble(
                    s -> s.load().getOrDefault("binding." + CapacityUnits.WRITE_MILLIUNITS, 0.0))
                .sum())
        .isEqualTo(2_000.0 * operations);
    assertThat(run.load().get(LoaderCpu.CPU_MS)).isPositive();
  }

  @Test
  void modelled_capacity_throttles_the_client_to_the_provisioned_rate_and_the_sdk_retries() {
    Properties p = load("model_" + UUID.randomUUID().toString().substring(0, 8), 300);
    p.setProperty("dynamodb.readCapacityUnits", "100");
    p.setProperty("dynamodb.writeCapacityUnits", "100");
    p.setProperty("dynamodb.modelCapacity", "true");

    RunResult run = BindingHarness.run("dynamodb", BenchSpec.Phase.LOAD, p);

    // every insert went through, some only after throttled attempts the SDK retried
    assertThat(run.operations().get("INSERT").count()).isEqualTo(300);
    assertThat(run.errorCount()).isZero();
    long modelled = run.counters().get("modelled_throttles");
    assertThat(modelled).isPositive();
    assertThat(run.counters().get("throttled_attempts")).isGreaterThanOrEqualTo(modelled);
    // 600 units at 100 a second, 100 of them banked at the start: about 5 s, not the
    // fraction of a second DynamoDB Local takes unthrottled
    assertThat(run.durationMs()).isGreaterThan(4_000);
    double peak =
        run.timeline().stream()
            .filter(s -> !s.warmup())
            .mapToDouble(SecondResult::count)
            .max()
            .orElse(0);
    // a second's inserts: 100 units refilled over the second (and the bank in the first)
    assertThat(peak).isLessThanOrEqualTo(110);
  }
}
