package io.varve.perf.dataplane;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;

/**
 * Writes Cassandra applied to a keyspace's tables, as its virtual table {@code
 * system_views.local_write_latency} counts them: one per partition updated (a batch of rows of one
 * partition is one write), on the node the session is connected to (the benchmark's single node).
 */
final class CassandraWrites {

  private final CqlSession session;
  private final SimpleStatement count;

  CassandraWrites(CqlSession session, String keyspace) {
    this.session = session;
    this.count =
        SimpleStatement.newInstance(
                "SELECT count FROM system_views.local_write_latency WHERE keyspace_name = ?",
                keyspace)
            .setTimeout(Duration.ofSeconds(10));
  }

  /** The writes applied to the keyspace since the node started. */
  long count() {
    long total = 0;
    for (Row row : session.execute(count)) {
      total += row.getLong(0);
    }
    return total;
  }
}
