package io.varve.perf.migrate;

import io.varve.command.ExitStatus;
import io.varve.perf.environment.Environment;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code varve perf migrate}: the options of {@link MigrateBenchmark}. Runs on the reshaper's
 * classpath (Spark); exits as {@code varve migrate} does: 2 for a usage error, {@link
 * ExitStatus#ABORTED_FATAL_ERROR} when the run fails.
 */
@Command(
    name = "migrate",
    mixinStandardHelpOptions = true,
    description =
        "Generates the users' case (ids_by_partnerid) and times (a) the copy,"
            + " (b) the compact reshape, (c) a plain connector DataFrame copy and (d) raw async CQL"
            + " ingest; prints key=value lines.")
public final class MigrateCommand implements Callable<Integer> {

  @Option(
      names = "--cassandra",
      description =
          "host:port of the database; default: start the"
              + " local development Cassandra (127.0.0.1:9042)")
  String cassandra;

  @Option(names = "--rows", defaultValue = "1000000", description = "source rows (default 1000000)")
  int rows;

  @Option(
      names = "--keyspace",
      defaultValue = "varve_perf_migrate",
      description = "keyspace to (re)create")
  String keyspace;

  @Option(
      names = "--task-slots",
      defaultValue = "0",
      description =
          "Spark task threads for"
              + " every phase; default: the embedded mode's (one per core, at least 2)")
  int taskSlots;

  @Option(
      names = "--repeat",
      defaultValue = "3",
      description =
          "times each phase runs, into"
              + " freshly created target tables; the figures are the medians (default 3)")
  int repeat;

  @Option(
      names = "--dynamodb-items",
      defaultValue = "200000",
      description =
          "items of the DynamoDB pair (a plain parallel Scan of DynamoDB Local and the reshaper's"
              + " copy of it), loaded once; 0 = no DynamoDB pair (default 200000)")
  int dynamoDbItems;

  @Override
  public Integer call() {
    if (dynamoDbItems < 0 || dynamoDbItems > 10_000_000) {
      System.err.println("--dynamodb-items: " + dynamoDbItems + " (expected: 0..10000000)");
      return ExitStatus.INVALID_INPUT.code();
    }
    if (repeat < 1 || repeat > 99) {
      System.err.println("--repeat: " + repeat + " (expected: 1..99)");
      return ExitStatus.INVALID_INPUT.code();
    }
    try (Environment environment = Environment.open("perf migrate")) {
      new MigrateBenchmark(
              environment, rows, keyspace, taskSlots, repeat, dynamoDbItems, System.out)
          .run(cassandra);
      return ExitStatus.OK.code();
    } catch (Exception e) {
      e.printStackTrace();
      return ExitStatus.ABORTED_FATAL_ERROR.code();
    }
  }
}
