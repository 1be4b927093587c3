package io.varve.reshaper.cli;

import io.varve.reshaper.perf.MigratePerf;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** {@code perf migrate}: times copy, reshape, the connector baseline and raw ingest. */
@Command(name = "migrate", mixinStandardHelpOptions = true,
    description = "Generates the users' case (ids_by_partnerid) and times (a) the copy,"
        + " (b) the compact reshape, (c) a plain connector DataFrame copy and (d) raw async CQL"
        + " ingest; prints key=value lines.")
final class PerfMigrateCommand implements Callable<Integer> {

  @Option(names = "--cassandra", description = "host:port of the database; default: start the"
      + " local development Cassandra (127.0.0.1:9042)")
  String cassandra;

  @Option(names = "--rows", defaultValue = "1000000", description = "source rows (default 1000000)")
  int rows;

  @Option(names = "--keyspace", defaultValue = "varve_perf_migrate",
      description = "keyspace to (re)create")
  String keyspace;

  @Option(names = "--task-slots", defaultValue = "0", description = "Spark task threads for"
      + " every phase; default: the embedded mode's (one per core, at least 2)")
  int taskSlots;

  @Option(names = "--repeat", defaultValue = "3", description = "times each phase runs, into"
      + " freshly created target tables; the figures are the medians (default 3)")
  int repeat;

  @Override
  public Integer call() throws Exception {
    if (repeat < 1 || repeat > 99) {
      System.err.println("--repeat: " + repeat + " (expected: 1..99)");
      return 2;
    }
    return new MigratePerf(cassandra, rows, keyspace, taskSlots, repeat, System.out,
        System.err).run();
  }
}
