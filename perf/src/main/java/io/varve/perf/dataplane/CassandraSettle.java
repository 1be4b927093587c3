package io.varve.perf.dataplane;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import java.time.Duration;
import java.util.Locale;

/**
 * Waits until the Cassandra of the run has done the work that writes leave behind them: flushing
 * memtables and compacting, as its virtual table {@code system_views.thread_pools} shows (no task
 * active or pending in a pool whose name holds {@code compaction} or {@code memtable}, twice in a
 * row): a latency phase that starts right after millions of writes would measure Cassandra's
 * compactions as much as the path it is meant to measure.
 */
public final class CassandraSettle {

  private static final Duration POLL = Duration.ofMillis(500);

  private final CqlSession session;
  private final SimpleStatement pools =
      SimpleStatement.newInstance(
              "SELECT name, active_tasks, pending_tasks FROM system_views.thread_pools")
          .setTimeout(Duration.ofSeconds(10));

  public CassandraSettle(CqlSession session) {
    this.session = session;
  }

  /**
   * Waits for at most {@code limit}; returns the seconds waited, negative if Cassandra was still
   * busy at the limit.
   */
  public double await(Duration limit) throws InterruptedException {
    long start = System.nanoTime();
    int quietPolls = 0;
    while (true) {
      quietPolls = busy() ? 0 : quietPolls + 1;
      double waited = (System.nanoTime() - start) / 1e9;
      if (quietPolls == 2) {
        return waited;
      }
      if (waited >= limit.toSeconds()) {
        return -waited;
      }
      Thread.sleep(POLL.toMillis());
    }
  }

  private boolean busy() {
    for (Row row : session.execute(pools)) {
      String name = row.getString("name").toLowerCase(Locale.ROOT);
      if ((name.contains("compaction") || name.contains("memtable"))
          && row.getInt("active_tasks") + row.getInt("pending_tasks") > 0) {
        return true;
      }
    }
    return false;
  }
}
