package io.varve.bench.cli;

import io.varve.bench.cost.CapacityUnits;
import io.varve.bench.load.LoaderCpu;
import io.varve.bench.result.RunResult;
import io.varve.bench.result.SecondResult;
import java.io.PrintStream;
import java.util.Locale;

/** A result's headline figures in YCSB's line format. */
final class Summary {
  private Summary() {}

  static void print(RunResult r, PrintStream out) {
    out.printf(Locale.ROOT, "[OVERALL], RunTime(ms), %d%n", r.durationMs());
    out.printf(Locale.ROOT, "[OVERALL], Throughput(ops/sec), %.1f%n", r.throughput());
    out.printf(Locale.ROOT, "[OVERALL], Loaders, %d%n", r.loaders());
    r.operations()
        .forEach(
            (name, op) -> {
              out.printf(Locale.ROOT, "[%s], Operations, %d%n", name, op.count());
              out.printf(
                  Locale.ROOT, "[%s], 95thPercentileLatency(us), %d%n", name, op.service().p95Us());
              out.printf(
                  Locale.ROOT, "[%s], 99thPercentileLatency(us), %d%n", name, op.service().p99Us());
              out.printf(
                  Locale.ROOT,
                  "[Intended-%s], 95thPercentileLatency(us), %d%n",
                  name,
                  op.intended().p95Us());
              out.printf(
                  Locale.ROOT,
                  "[Intended-%s], 99thPercentileLatency(us), %d%n",
                  name,
                  op.intended().p99Us());
              op.errors()
                  .forEach(
                      (status, n) ->
                          out.printf(Locale.ROOT, "[%s], Return=%s, %d%n", name, status, n));
            });
    printLoad(r, out);
  }

  /**
   * What was sampled beside the operations over the measured part ({@code [LOAD], name, value}),
   * the loader's CPU per operation first.
   */
  /**
   * DynamoDB's units per operation (the item-size rule as the service applied it) and, for a table
   * of provisioned capacity ({@code dynamodb.readCapacityUnits}, {@code
   * dynamodb.writeCapacityUnits}), the mean and peak share of it that the measured seconds used.
   */
  static void dynamoDbCapacity(RunResult r, PrintStream out) {
    Long ops = r.counters().get(CapacityUnits.OPERATIONS);
    if (ops == null || ops == 0) {
      return;
    }
    for (String kind : new String[] {"read", "write"}) {
      String counter =
          kind.equals("read") ? CapacityUnits.READ_MILLIUNITS : CapacityUnits.WRITE_MILLIUNITS;
      out.printf(
          Locale.ROOT,
          "[LOAD], dynamodb.%s_units_per_op, %.2f%n",
          kind,
          r.counters().getOrDefault(counter, 0L) / 1000.0 / ops);
      String provisioned = r.properties().get("dynamodb." + kind + "CapacityUnits");
      if (provisioned == null) {
        continue;
      }
      double perSecond;
      try {
        perSecond = Double.parseDouble(provisioned);
      } catch (NumberFormatException e) {
        continue; // a result file edited by hand: no share to show
      }
      if (!(perSecond > 0)) {
        continue;
      }
      double sum = 0;
      double peak = 0;
      int seconds = 0;
      for (SecondResult s : r.timeline()) {
        if (!s.warmup()) {
          double used = s.load().getOrDefault("binding." + counter, 0.0) / 1000.0 / perSecond;
          sum += used;
          peak = Math.max(peak, used);
          seconds++;
        }
      }
      if (seconds > 0) {
        out.printf(
            Locale.ROOT,
            "[LOAD], dynamodb.%s_capacity_share.mean, %.2f%n[LOAD], dynamodb.%s_capacity_share.peak, %.2f%n",
            kind,
            sum / seconds,
            kind,
            peak);
      }
    }
  }

  static void printLoad(RunResult r, PrintStream out) {
    Double cpu = r.load().get(LoaderCpu.CPU_MS);
    if (cpu != null && r.count() > 0) {
      out.printf(Locale.ROOT, "[LOAD], loader.cpu_us_per_op, %.1f%n", cpu * 1000 / r.count());
    }
    r.load().forEach((name, value) -> out.printf(Locale.ROOT, "[LOAD], %s, %.1f%n", name, value));
    dynamoDbCapacity(r, out);
    r.counters()
        .forEach((name, value) -> out.printf(Locale.ROOT, "[COUNTER], %s, %d%n", name, value));
  }
}
