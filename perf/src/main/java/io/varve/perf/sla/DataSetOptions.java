package io.varve.perf.sla;

import io.varve.perf.OptionChecks;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;

/** The data sets of {@code perf sla} and {@code perf capacity}: records per binding. */
final class DataSetOptions {

  @Option(
      names = "--records",
      defaultValue = "100000",
      description = "records of the cql and varve data sets (default ${DEFAULT-VALUE})")
  int records;

  @Option(
      names = "--dynamodb-records",
      defaultValue = "10000",
      description = "records of the DynamoDB Local data set (default ${DEFAULT-VALUE}; it is slow)")
  int dynamoDbRecords;

  /** Refuses a count under 1, naming the option. */
  void check(CommandSpec spec) {
    OptionChecks.inRange(spec, "--records", records, 1, Integer.MAX_VALUE);
    OptionChecks.inRange(spec, "--dynamodb-records", dynamoDbRecords, 1, Integer.MAX_VALUE);
  }
}
