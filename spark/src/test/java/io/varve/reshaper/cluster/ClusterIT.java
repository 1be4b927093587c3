package io.varve.reshaper.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.reshaper.CassandraFixture;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.config.JobConfigLoader;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Looking up a side's table through the connector's cached sessions. */
class ClusterIT {
  static CassandraFixture db;

  @BeforeAll
  static void createKeyspace() {
    db = new CassandraFixture("reshaper_cluster_it");
    db.execute("CREATE TABLE " + db.keyspace + ".existing (k int PRIMARY KEY, v text)");
  }

  @AfterAll
  static void close() {
    db.close();
  }

  private static Cluster target(String table) {
    JobConfig config =
        JobConfigLoader.parse(db.side("source", "existing", "") + db.side("target", table, ""));
    return new Cluster(config.target(), Map.of());
  }

  @Test
  void finds_a_table_created_just_before_the_lookup_through_a_session_that_was_already_open() {
    Cluster target = target("created_late");
    try (CqlSession session = target.open()) {
      assertThat(session.getMetadata().getKeyspace(db.keyspace))
          .as("the session's schema")
          .isPresent();
      db.execute("CREATE TABLE " + db.keyspace + ".created_late (k int PRIMARY KEY, v text)");
      // The open session hears of the new table from a schema event it debounces for about a
      // second; the lookup must not depend on that.
      assertThat(target.table(session).getName().asInternal()).isEqualTo("created_late");
    }
  }

  @Test
  void refuses_a_missing_table_naming_the_key_and_the_tables_that_exist() {
    Cluster target = target("nowhere");
    try (CqlSession session = target.open()) {
      assertThatThrownBy(() -> target.table(session))
          .isInstanceOf(ConfigException.class)
          .hasMessageContaining("target.table")
          .hasMessageContaining("nowhere does not exist")
          .hasMessageContaining("existing");
    }
  }
}
