package io.varve.cassandra.session;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.servererrors.InvalidQueryException;
import com.datastax.oss.driver.api.core.servererrors.SyntaxError;
import io.varve.cassandra.TestSessions;
import io.varve.local.testing.TestCassandraCluster;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Schema changes that every node knows once they are answered, on the tests' three-node cluster,
 * and prepares at start that wait for a table a node does not know yet, on the test Cassandra.
 */
class SchemaChangesIT {

  static final String KEYSPACE = "cassandra_schema_changes_it";
  static CqlSession session;

  @BeforeAll
  static void open() {
    session = TestSessions.open();
    TestSessions.freshKeyspace(session, KEYSPACE);
  }

  @AfterAll
  static void close() {
    if (session != null) {
      session.close();
    }
  }

  @Test
  void a_table_created_through_it_is_in_every_nodes_own_schema_when_the_change_is_answered() {
    String keyspace = "cassandra_schema_changes_rf3";
    try (CqlSession cluster =
        Sessions.open(
                TestSessions.settings()
                    .withContactPoints(TestCassandraCluster.get().contactPoints()))
            .toCompletableFuture()
            .join()) {
      assertThat(cluster.getMetadata().getNodes().values())
          .allSatisfy(
              node ->
                  assertThat(node.getDatacenter())
                      .isEqualTo(TestCassandraCluster.localDatacenter()));
      SchemaChanges.applyNow(
          cluster,
          SimpleStatement.newInstance(
              "CREATE KEYSPACE IF NOT EXISTS "
                  + keyspace
                  + " WITH replication = {'class': 'SimpleStrategy', 'replication_factor': 3}"),
          TestSessions.SCHEMA_TIMEOUT);
      String table = "t_" + Long.toString(System.nanoTime(), 36);

      SchemaChanges.applyNow(
          cluster,
          SimpleStatement.newInstance(
              "CREATE TABLE " + keyspace + "." + table + " (k int PRIMARY KEY, v int)"),
          TestSessions.SCHEMA_TIMEOUT);

      Map<java.util.UUID, Node> nodes = cluster.getMetadata().getNodes();
      assertThat(nodes).hasSize(3);
      for (Node node : nodes.values()) {
        assertThat(
                cluster
                    .execute(
                        SimpleStatement.newInstance(
                                "SELECT table_name FROM system_schema.tables"
                                    + " WHERE keyspace_name = ? AND table_name = ?",
                                keyspace,
                                table)
                            .setNode(node))
                    .one())
            .as("table %s on node %s", table, node.getEndPoint())
            .isNotNull();
      }
    }
  }

  @Test
  void a_prepare_waits_for_a_table_created_while_it_retries() throws Exception {
    String table = KEYSPACE + ".late_" + Long.toString(System.nanoTime(), 36);
    CompletableFuture<Void> created =
        CompletableFuture.runAsync(
            () ->
                SchemaChanges.applyNow(
                    session,
                    SimpleStatement.newInstance(
                        "CREATE TABLE " + table + " (k int PRIMARY KEY, v int)"),
                    TestSessions.SCHEMA_TIMEOUT),
            CompletableFuture.delayedExecutor(500, TimeUnit.MILLISECONDS));

    PreparedStatement insert =
        SchemaChanges.prepareNow(
            session, "INSERT INTO " + table + " (k, v) VALUES (?, ?)", Duration.ofSeconds(30));

    created.get(30, TimeUnit.SECONDS);
    session.execute(insert.bind(1, 2));
    assertThat(session.execute("SELECT v FROM " + table + " WHERE k = 1").one().getInt(0))
        .isEqualTo(2);
  }

  @Test
  void a_prepare_of_a_table_that_never_comes_fails_after_its_timeout_naming_the_table() {
    long start = System.nanoTime();

    assertThatThrownBy(
            () ->
                SchemaChanges.prepareNow(
                    session, "SELECT v FROM " + KEYSPACE + ".never", Duration.ofMillis(400)))
        .isInstanceOf(InvalidQueryException.class)
        .hasMessageContaining("never");
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThan(Duration.ofMillis(400));
  }

  @Test
  void a_statement_that_is_wrong_is_not_retried() {
    long start = System.nanoTime();

    assertThatThrownBy(
            () ->
                SchemaChanges.prepareNow(
                    session, "SELEC v FROM " + KEYSPACE + ".never", Duration.ofSeconds(30)))
        .isInstanceOf(SyntaxError.class);
    assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(10));
  }
}
