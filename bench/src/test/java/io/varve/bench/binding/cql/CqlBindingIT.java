package io.varve.bench.binding.cql;

import static io.varve.bench.binding.BindingHarness.open;
import static io.varve.bench.binding.BindingHarness.strings;
import static io.varve.bench.binding.BindingHarness.values;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.bench.binding.BindingHarness;
import io.varve.bench.engine.BenchSpec;
import io.varve.bench.result.RunResult;
import io.varve.local.testing.TestCassandra;
import java.net.InetSocketAddress;
import java.time.Duration;
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

/** The cql binding on the real test Cassandra. */
class CqlBindingIT {
  private static final String KEYSPACE = "bench_cql_it";
  private static InetSocketAddress cassandra;
  private static CqlSession cql;

  @BeforeAll
  static void connect() {
    cassandra = TestCassandra.contactPoint();
    cql =
        CqlSession.builder().addContactPoint(cassandra).withLocalDatacenter("datacenter1").build();
    cql.execute(
        SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + KEYSPACE)
            .setTimeout(Duration.ofSeconds(30)));
  }

  @AfterAll
  static void close() {
    cql.close();
  }

  private static Properties properties(Properties base) {
    base.setProperty("hosts", cassandra.getHostString());
    base.setProperty("port", String.valueOf(cassandra.getPort()));
    base.setProperty("cassandra.keyspace", KEYSPACE);
    base.setProperty("cassandra.create", "true");
    return base;
  }

  @Test
  void loads_then_runs_workload_a() {
    Properties p = properties(BindingHarness.workloadA(500, 1000));
    p.setProperty("table", "usertable_a");
    RunResult load = BindingHarness.run("cql", BenchSpec.Phase.LOAD, p);
    assertThat(load.operations().get("INSERT").count()).isEqualTo(500);
    assertThat(load.errorCount()).isZero();
    long rows = cql.execute("SELECT count(*) FROM " + KEYSPACE + ".usertable_a").one().getLong(0);
    assertThat(rows).isEqualTo(500);

    // the test node's JMX port (LocalCassandraSettings.forTests)
    p.setProperty("serverload.jmxPort", "17199");
    p.setProperty("target", "500");
    RunResult run = BindingHarness.run("cql", BenchSpec.Phase.RUN, p);
    assertThat(run.errorCount()).isZero();
    assertThat(run.operations().get("READ").count() + run.operations().get("UPDATE").count())
        .isEqualTo(1000);
    assertThat(run.operations().get("READ").service().p50Us()).isPositive();

    // the node's side beside the client's, over the run and second by second
    Map<String, Double> nodes = run.load();
    assertThat(nodes).containsKeys("cql.completed.mutation_stage", "cql.completed.read_stage");
    // read a second at a time from the node's thread pools, the node's count falls short of the
    // client's by what the last samples miss: 0.89 of the updates on a machine several times
    // slower than usual (2026-12-01), 0.9 or more before
    assertThat(nodes.get("cql.completed.mutation_stage"))
        .as("mutations the node completed: " + nodes)
        .isGreaterThanOrEqualTo(run.operations().get("UPDATE").count() * 0.8);
    assertThat(nodes).containsKeys("cql.pending.mean", "cql.pending.max", "cql.blocked.max");
    assertThat(nodes.get("cql.cpu_ms")).as("the node's CPU over JMX").isPositive();
    assertThat(nodes.get("cql.dropped_mutations")).isZero();
    assertThat(nodes.get("loader.cpu_ms")).isPositive();
    assertThat(run.timeline())
        .filteredOn(s -> !s.warmup())
        .allSatisfy(s -> assertThat(s.load()).containsKeys("cql.cpu_ms", "cql.pending"));
  }

  @Test
  void operations_round_trip() throws Exception {
    Properties p = properties(BindingHarness.workloadA(10, 10));
    p.setProperty("table", "usertable_ops");
    DB db = open(new CqlBinding(), p);
    try {
      assertThat(
              db.insert(
                  "usertable",
                  "user1",
                  values("field0", "a", "field1", "b", "field2", "c", "field3", "d")))
          .isEqualTo(Status.OK);
      Map<String, ByteIterator> all = new HashMap<>();
      assertThat(db.read("usertable", "user1", null, all)).isEqualTo(Status.OK);
      assertThat(strings(all))
          .isEqualTo(Map.of("field0", "a", "field1", "b", "field2", "c", "field3", "d"));

      Map<String, ByteIterator> some = new HashMap<>();
      assertThat(db.read("usertable", "user1", Set.of("field2"), some)).isEqualTo(Status.OK);
      assertThat(strings(some)).isEqualTo(Map.of("field2", "c"));

      assertThat(db.update("usertable", "user1", values("field1", "B"))).isEqualTo(Status.OK);
      Map<String, ByteIterator> updated = new HashMap<>();
      db.read("usertable", "user1", null, updated);
      assertThat(strings(updated))
          .isEqualTo(Map.of("field0", "a", "field1", "B", "field2", "c", "field3", "d"));

      for (int i = 2; i <= 6; i++) {
        db.insert("usertable", "user" + i, values("field0", "v" + i));
      }
      Vector<HashMap<String, ByteIterator>> scanned = new Vector<>();
      assertThat(db.scan("usertable", "user1", 3, Set.of("field0"), scanned)).isEqualTo(Status.OK);
      assertThat(scanned)
          .hasSize(3)
          .allSatisfy(record -> assertThat(record).containsOnlyKeys("field0"));

      assertThat(db.delete("usertable", "user1")).isEqualTo(Status.OK);
      assertThat(db.read("usertable", "user1", null, new HashMap<>())).isEqualTo(Status.NOT_FOUND);
    } finally {
      db.cleanup();
    }
  }

  @Test
  void bad_configuration_is_named() {
    Properties missing = properties(BindingHarness.workloadA(10, 10));
    missing.setProperty("cassandra.create", "false");
    missing.setProperty("table", "no_such_table");
    assertThatThrownBy(() -> open(new CqlBinding(), missing))
        .isInstanceOf(DBException.class)
        .hasMessageContaining(KEYSPACE + ".no_such_table")
        .hasMessageContaining("cassandra.create=true");

    Properties level = properties(BindingHarness.workloadA(10, 10));
    level.setProperty("cassandra.readconsistencylevel", "MOST");
    assertThatThrownBy(() -> open(new CqlBinding(), level))
        .hasMessageStartingWith("cassandra.readconsistencylevel: MOST (expected: one of ");

    Properties table = properties(BindingHarness.workloadA(10, 10));
    table.setProperty("table", "users; DROP TABLE x");
    assertThatThrownBy(() -> open(new CqlBinding(), table))
        .hasMessageStartingWith("table: users; DROP TABLE x (expected: ");

    Properties unreachable = properties(BindingHarness.workloadA(10, 10));
    unreachable.setProperty("port", "1");
    unreachable.setProperty("cassandra.connecttimeoutmillis", "500");
    assertThatThrownBy(() -> open(new CqlBinding(), unreachable))
        .hasMessageContaining("cannot connect")
        .hasMessageContaining("port=1");
  }

  @Test
  void a_cold_run_empties_the_node_caches_first_and_one_that_cannot_is_refused() {
    Properties p = properties(BindingHarness.workloadA(100, 200));
    p.setProperty("table", "usertable_cold");
    BindingHarness.run("cql", BenchSpec.Phase.LOAD, p);
    p.setProperty("serverload.cold", "true");
    p.setProperty("serverload.jmxPort", "17199");
    java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
    RunResult run =
        new io.varve.bench.engine.BenchRun(
                new BenchSpec("cql", BenchSpec.Phase.RUN, p, "cold"),
                new java.io.PrintStream(out, true, java.nio.charset.StandardCharsets.UTF_8),
                System.err)
            .run();
    assertThat(run.errorCount()).isZero();
    assertThat(out.toString(java.nio.charset.StandardCharsets.UTF_8))
        .containsPattern(
            "cold: 1 node\\(s\\) flushed \\d+ keyspace\\(s\\) and emptied their key, row")
        .contains("the OS page cache was");

    p.setProperty("serverload.jmxPort", "0");
    assertThatThrownBy(() -> BindingHarness.run("cql", BenchSpec.Phase.RUN, p))
        .hasMessageContaining("serverload.jmxPort: 0 (expected: the nodes' JMX port");
    p.setProperty("serverload.jmxPort", "17199");
    p.setProperty("serverload.cql", "false");
    assertThatThrownBy(() -> BindingHarness.run("cql", BenchSpec.Phase.RUN, p))
        .hasMessageContaining("serverload.cold: true (expected: a run that reaches its Cassandra");
  }

  @Test
  void a_run_whose_binding_cannot_start_fails_with_the_reason() {
    Properties p = properties(BindingHarness.workloadA(10, 10));
    p.setProperty("cassandra.writeconsistencylevel", "SOME");
    assertThatThrownBy(() -> BindingHarness.run("cql", BenchSpec.Phase.LOAD, p))
        .hasMessageContaining("failed to start")
        .hasMessageContaining("cassandra.writeconsistencylevel: SOME (expected: ");
  }
}
