package io.varve.cassandra;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import io.varve.cassandra.metadata.CqlSliceTables;
import io.varve.cassandra.session.CassandraSettings;
import io.varve.cassandra.session.Sessions;
import io.varve.local.testing.TestCassandra;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * Sessions on the shared test Cassandra, opened as the server opens its own, and a fresh keyspace
 * per test class (its name unique to the class).
 */
public final class TestSessions {

  public static final Duration SCHEMA_TIMEOUT = Duration.ofSeconds(60);

  private TestSessions() {}

  /** The settings of the shared test Cassandra (replication factor 1). */
  public static CassandraSettings settings() {
    return CassandraSettings.local(9042).withContactPoints(List.of(TestCassandra.contactPoint()));
  }

  /** A session with the server's options (token map on, reconnection, timeouts). */
  public static CqlSession open() {
    return Sessions.open(settings()).toCompletableFuture().join();
  }

  /**
   * Drops {@code keyspace} if an earlier run left it, creates it anew, and returns its slice
   * tables.
   */
  public static CqlSliceTables freshKeyspace(CqlSession session, String keyspace) {
    session.execute(
        SimpleStatement.newInstance("DROP KEYSPACE IF EXISTS " + keyspace)
            .setTimeout(SCHEMA_TIMEOUT));
    CqlSliceTables tables =
        new CqlSliceTables(
            session, Map.of("class", "SimpleStrategy", "replication_factor", "1"), SCHEMA_TIMEOUT);
    tables.createKeyspaceIfMissing(keyspace).toCompletableFuture().join();
    return tables;
  }
}
