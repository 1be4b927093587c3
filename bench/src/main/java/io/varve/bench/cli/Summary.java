package io.varve.bench.cli;

import io.varve.bench.load.LoaderCpu;
import io.varve.bench.result.RunResult;
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
  static void printLoad(RunResult r, PrintStream out) {
    Double cpu = r.load().get(LoaderCpu.CPU_MS);
    if (cpu != null && r.count() > 0) {
      out.printf(Locale.ROOT, "[LOAD], loader.cpu_us_per_op, %.1f%n", cpu * 1000 / r.count());
    }
    r.load().forEach((name, value) -> out.printf(Locale.ROOT, "[LOAD], %s, %.1f%n", name, value));
    r.counters()
        .forEach((name, value) -> out.printf(Locale.ROOT, "[COUNTER], %s, %d%n", name, value));
  }
}
