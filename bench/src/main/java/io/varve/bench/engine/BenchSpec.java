package io.varve.bench.engine;

import java.util.Properties;

/**
 * One benchmark run as YCSB understands it.
 *
 * @param binding binding name ({@code cql}, {@code dynamodb}, {@code varve}, {@code noop}) or the
 *     class name of any YCSB {@code site.ycsb.DB}
 * @param phase {@code load} (inserts only) or {@code run} (the workload's transactions)
 * @param properties YCSB properties: workload files, then {@code -p} overrides, then the command's
 *     own options ({@code threadcount}, {@code target}, {@code status}...)
 * @param label a name for this run in results and reports
 */
public record BenchSpec(String binding, Phase phase, Properties properties, String label) {

  /** The two YCSB phases. */
  public enum Phase {
    LOAD,
    RUN;

    /** The lower-case name used on the command line and in result files. */
    public String cliName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /** An integer property, with a clear error naming it when it does not parse. */
  public long longProperty(String name, long defaultValue) {
    String value = properties.getProperty(name);
    if (value == null || value.isBlank()) {
      return defaultValue;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new BenchInputException(
          "property " + name + "=" + value + " is not valid: expected an integer");
    }
  }
}
