package io.varve.perf.sla;

import java.nio.file.Path;
import java.util.List;

/**
 * What {@code varve perf sla} runs, from its options (see {@link SlaCommand}).
 *
 * @param records records of the cql and varve data sets
 * @param dynamoDbRecords records of the DynamoDB Local data set (it is slow)
 * @param seconds measured length of each scenario run
 * @param warmup seconds of warm-up before each scenario run, not measured
 * @param target target rate of each scenario run (ops/s), the SLA's throughput
 * @param threads client threads of every run
 * @param bindings the bindings to compare, in order
 * @param out the directory of the result files, the runs' output and the reports
 */
record SlaPlan(
    int records,
    int dynamoDbRecords,
    int seconds,
    int warmup,
    int target,
    int threads,
    List<String> bindings,
    Path out) {

  /** The three workload-A scenarios, each a workload file {@code workloads/sla-<scenario>}. */
  static final List<String> SCENARIOS = List.of("uniform", "zipfian-hotset", "hot-partition");

  /**
   * The SLA of every scenario run: 95 % of the target rate, and read and update p99 under 10 ms.
   */
  String sla() {
    return "throughput>=" + (target * 95 / 100) + ",read.p99<10ms,update.p99<10ms";
  }

  /** The records of a binding's data set. */
  int records(String binding) {
    return binding.equals("dynamodb") ? dynamoDbRecords : records;
  }
}
