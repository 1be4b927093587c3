package io.varve.server.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.server.metrics.CassandraRequestMetrics.Operation;
import org.junit.jupiter.api.Test;

class CassandraRequestMetricsTest {

  @Test
  void classifies_a_statement_by_its_first_word_in_any_case() {
    assertThat(Operation.of(SimpleStatement.newInstance("  select * from ks.t")))
        .isEqualTo(Operation.READ);
    assertThat(Operation.of(SimpleStatement.newInstance("INSERT INTO ks.t (a) VALUES (1)")))
        .isEqualTo(Operation.WRITE);
    assertThat(Operation.of(SimpleStatement.newInstance("Update ks.t SET a = 1 WHERE k = 0")))
        .isEqualTo(Operation.WRITE);
    assertThat(Operation.of(SimpleStatement.newInstance("\nDELETE FROM ks.t WHERE k = 0")))
        .isEqualTo(Operation.WRITE);
    assertThat(Operation.of(BatchStatement.newInstance(BatchType.UNLOGGED)))
        .isEqualTo(Operation.WRITE);
  }

  @Test
  void schema_statements_and_longer_words_count_as_other() {
    assertThat(Operation.of(SimpleStatement.newInstance("CREATE TABLE ks.t (k int PRIMARY KEY)")))
        .isEqualTo(Operation.OTHER);
    assertThat(Operation.of(SimpleStatement.newInstance("SELECTION"))).isEqualTo(Operation.OTHER);
    assertThat(Operation.of(SimpleStatement.newInstance("SELEC"))).isEqualTo(Operation.OTHER);
    assertThat(Operation.of(SimpleStatement.newInstance(""))).isEqualTo(Operation.OTHER);
  }

  @Test
  void records_each_request_under_its_operation_and_outcome() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CassandraRequestMetrics metrics = new CassandraRequestMetrics(registry);
    metrics.onSuccess(SimpleStatement.newInstance("SELECT 1"), 2_000_000, null, null, "");
    metrics.onError(
        SimpleStatement.newInstance("INSERT x"), new RuntimeException(), 1, null, null, "");
    assertThat(
            registry
                .get("varve.cassandra.requests")
                .tags("operation", "read", "outcome", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("varve.cassandra.requests")
                .tags("operation", "write", "outcome", "error")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("varve.cassandra.requests")
                .tags("operation", "read", "outcome", "error")
                .timer()
                .count())
        .isZero();
  }

  @Test
  void each_clusters_requests_are_counted_under_its_name() {
    SimpleMeterRegistry registry = new SimpleMeterRegistry();
    CassandraRequestMetrics home = new CassandraRequestMetrics(registry);
    CassandraRequestMetrics analytics = new CassandraRequestMetrics(registry, "analytics");
    home.onSuccess(SimpleStatement.newInstance("SELECT 1"), 1, null, null, "");
    analytics.onSuccess(SimpleStatement.newInstance("SELECT 1"), 1, null, null, "");
    analytics.onSuccess(SimpleStatement.newInstance("SELECT 2"), 1, null, null, "");

    assertThat(
            registry
                .get("varve.cassandra.requests")
                .tags("cluster", "default", "operation", "read", "outcome", "success")
                .timer()
                .count())
        .isEqualTo(1);
    assertThat(
            registry
                .get("varve.cassandra.requests")
                .tags("cluster", "analytics", "operation", "read", "outcome", "success")
                .timer()
                .count())
        .isEqualTo(2);
  }
}
