package io.varve.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.varve.bench.cost.CapacityUnits;
import io.varve.bench.result.RunResult;
import io.varve.bench.result.SecondResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code [LOAD]} lines a run prints beside YCSB's. */
class SummaryTest {

  @Test
  void dynamodb_units_per_operation_and_the_share_of_the_provisioned_capacity_are_printed() {
    String write = "binding." + CapacityUnits.WRITE_MILLIUNITS;
    List<SecondResult> timeline =
        List.of(
            new SecondResult(1, Map.of(), true, Map.of(write, 900_000.0)),
            new SecondResult(2, Map.of(), false, Map.of(write, 50_000.0)),
            new SecondResult(3, Map.of(), false, Map.of(write, 100_000.0)));
    RunResult run =
        new RunResult(
            RunResult.FORMAT,
            "l",
            "dynamodb",
            "load",
            "w",
            Map.of("dynamodb.readCapacityUnits", "50", "dynamodb.writeCapacityUnits", "100"),
            1,
            0,
            1,
            "h",
            0,
            2000,
            75,
            Map.of(),
            Map.of(
                CapacityUnits.OPERATIONS, 75L,
                CapacityUnits.WRITE_MILLIUNITS, 150_000L,
                CapacityUnits.READ_MILLIUNITS, 0L),
            timeline,
            1000,
            Map.of("loader.cpu_ms", 30.0));
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    Summary.printLoad(run, new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);

    // 150 units over 75 operations; 50 and 100 units of the 100 provisioned in the measured
    // seconds (the warm-up's 900 left out)
    assertThat(out)
        .contains("[LOAD], dynamodb.write_units_per_op, 2.00")
        .contains("[LOAD], dynamodb.write_capacity_share.mean, 0.75")
        .contains("[LOAD], dynamodb.write_capacity_share.peak, 1.00")
        .contains("[LOAD], dynamodb.read_units_per_op, 0.00")
        .contains("[LOAD], dynamodb.read_capacity_share.peak, 0.00")
        .contains("[COUNTER], consumed_operations, 75");
  }
}
