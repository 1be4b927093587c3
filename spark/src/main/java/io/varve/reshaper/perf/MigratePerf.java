package io.varve.reshaper.perf;

import java.io.PrintStream;

/** Placeholder replaced below. */
public final class MigratePerf {
  public MigratePerf(String cassandra, int rows, String keyspace, PrintStream out, PrintStream err) {}

  public int run() {
    return 0;
  }
}
