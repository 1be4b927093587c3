package io.varve.bench.binding.varve;

import static io.varve.bench.binding.BindingHarness.open;
import static io.varve.bench.binding.BindingHarness.strings;
import static io.varve.bench.binding.BindingHarness.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.varve.bench.binding.BindingHarness;
import io.varve.bench.engine.BenchSpec;
import io.varve.bench.result.RunResult;
import io.varve.server.VarveServer;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import java.util.Set;
import java.util.Vector;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import site.ycsb.ByteIterator;
import site.ycsb.DB;
import site.ycsb.DBException;
import site.ycsb.Status;

/** The varve binding against a real Varve server on the real test Cassandra. */
class VarveBindingIT {
  private static final String METADATA = "varve_bench_it";
  private static final String NAMESPACE = "bench_varve_it";
  private static VarveServer server;

  @BeforeAll
  static void start() {
    server = VarveTestServer.start(METADATA, NAMESPACE);
  }

  @AfterAll
  static void stop() {
    server.close();
  }

  private static Properties properties(Properties p) {
    p.setProperty("varve.url", "http://127.0.0.1:" + server.port());
    p.setProperty("varve.namespace", NAMESPACE);
    p.setProperty("varve.create", "true");
    return p;
  }

  @Test
  void loads_then_runs_workload_a() {
    Properties p = properties(BindingHarness.workloadA(200, 400));
    RunResult load = BindingHarness.run("varve", BenchSpec.Phase.LOAD, p);
    assertThat(load.operations().get("INSERT").errors()).isEmpty();
    assertThat(load.operations().get("INSERT").count()).isEqualTo(200);

    RunResult run = BindingHarness.run("varve", BenchSpec.Phase.RUN, p);
    // Every record was loaded, so no read misses.
    assertThat(run.errorCount()).isZero();
    assertThat(run.operations().get("READ").count() + run.operations().get("UPDATE").count())
        .isEqualTo(400);
  }

  @Test
  void a_record_is_its_time_series_and_reads_return_the_newest_event() throws Exception {
    DB db = open(new VarveBinding(), properties(BindingHarness.workloadA(10, 10)));
    try {
      assertThat(db.read("usertable", "series-a", null, new HashMap<>()))
          .isEqualTo(Status.NOT_FOUND);
      assertThat(db.insert("usertable", "series-a", values("field0", "a", "field1", "b")))
          .isEqualTo(Status.OK);
      Map<String, ByteIterator> first = new HashMap<>();
      assertThat(db.read("usertable", "series-a", null, first)).isEqualTo(Status.OK);
      assertThat(strings(first)).isEqualTo(Map.of("field0", "a", "field1", "b"));

      // the binding stamps an event with the wall clock's millisecond: the update's is a later one
      long inserted = System.currentTimeMillis();
      while (System.currentTimeMillis() <= inserted) {
        Thread.onSpinWait();
      }
      assertThat(db.update("usertable", "series-a", values("field1", "B"))).isEqualTo(Status.OK);
      Map<String, ByteIterator> newest = new HashMap<>();
      assertThat(db.read("usertable", "series-a", Set.of("field1"), newest)).isEqualTo(Status.OK);
      assertThat(strings(newest)).isEqualTo(Map.of("field1", "B"));

      Vector<HashMap<String, ByteIterator>> history = new Vector<>();
      assertThat(db.scan("usertable", "series-a", 10, null, history)).isEqualTo(Status.OK);
      assertThat(history).hasSize(2);
      assertThat(strings(history.get(0))).isEqualTo(Map.of("field1", "B"));
      assertThat(strings(history.get(1))).isEqualTo(Map.of("field0", "a", "field1", "b"));

      assertThat(db.delete("usertable", "series-a")).isEqualTo(Status.NOT_IMPLEMENTED);
    } finally {
      db.cleanup();
    }
  }

  @Test
  void bad_configuration_is_named() {
    Properties missing = properties(BindingHarness.workloadA(10, 10));
    missing.setProperty("varve.create", "false");
    missing.setProperty("varve.namespace", "no_such_namespace");
    assertThatThrownBy(() -> open(new VarveBinding(), missing))
        .isInstanceOf(DBException.class)
        .hasMessageContaining("no_such_namespace")
        .hasMessageContaining("varve.create=true");

    Properties url = properties(BindingHarness.workloadA(10, 10));
    url.setProperty("varve.url", "127.0.0.1:8080");
    assertThatThrownBy(() -> open(new VarveBinding(), url))
        .hasMessageStartingWith(
            "varve.url: 127.0.0.1:8080 (expected: a URL with scheme http or https");

    Properties namespace = properties(BindingHarness.workloadA(10, 10));
    namespace.setProperty("varve.namespace", "Bad-Name");
    assertThatThrownBy(() -> open(new VarveBinding(), namespace))
        .hasMessageStartingWith("varve.namespace: Bad-Name (expected: ");
  }
}
