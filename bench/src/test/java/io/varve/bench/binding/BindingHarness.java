package io.varve.bench.binding;

import io.varve.bench.engine.BenchRun;
import io.varve.bench.engine.BenchSpec;
import io.varve.bench.result.RunResult;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.StringByteIterator;

/** Runs bindings the way the benchmark does, for binding tests. */
public final class BindingHarness {
  private BindingHarness() {}

  /** Workload A's properties over {@code records} records. */
  public static Properties workloadA(int records, int operations) {
    Properties p = new Properties();
    p.setProperty("workload", "io.varve.bench.workload.SkewedCoreWorkload");
    p.setProperty("recordcount", String.valueOf(records));
    p.setProperty("operationcount", String.valueOf(operations));
    p.setProperty("readproportion", "0.5");
    p.setProperty("updateproportion", "0.5");
    p.setProperty("fieldcount", "4");
    p.setProperty("fieldlength", "20");
    p.setProperty("threadcount", "4");
    return p;
  }

  /** Runs one phase through YCSB's engine. */
  public static RunResult run(String binding, BenchSpec.Phase phase, Properties p) {
    return new BenchRun(
            new BenchSpec(binding, phase, p, binding + "-it"),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8),
            new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8))
        .run();
  }

  /** A binding instance, initialised with the given properties. */
  public static DB open(DB db, Properties p) throws Exception {
    db.setProperties(p);
    db.init();
    return db;
  }

  /** Field values as YCSB passes them. */
  public static Map<String, ByteIterator> values(String... pairs) {
    Map<String, ByteIterator> values = new HashMap<>();
    for (int i = 0; i < pairs.length; i += 2) {
      values.put(pairs[i], new StringByteIterator(pairs[i + 1]));
    }
    return values;
  }

  /** What a read returned, as strings. */
  public static Map<String, String> strings(Map<String, ByteIterator> result) {
    Map<String, String> out = new HashMap<>();
    result.forEach((k, v) -> out.put(k, v.toString()));
    return out;
  }
}
