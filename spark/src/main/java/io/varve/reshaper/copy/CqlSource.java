package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TokenRange;
import io.varve.reshaper.plan.WorkUnit;

/**
 * The reader of a table: a unit is a token range, read by a paged {@link RangeScan} in token order
 * (so the rows of a partition come together). Sessions come from the connector's per-executor
 * cache.
 */
public final class CqlSource implements SourceReader {
  private static final long serialVersionUID = 1L;
  private final CassandraConnector connector;
  private final MigrationPlan plan;
  private final JobConfig config;

  public CqlSource(CassandraConnector connector, MigrationPlan plan, JobConfig config) {
    this.connector = connector;
    this.plan = plan;
    this.config = config;
  }

  @Override
  public UnitRows open(WorkUnit unit) {
    CqlSession session = connector.openSession();
    try {
      RangeScan scan =
          new RangeScan(
              session,
              session.prepare(plan.source().selectCql()),
              (TokenRange) unit,
              config.source().fetchSize(),
              config.source().consistencyLevel());
      return new UnitRows() {
        @Override
        public boolean hasNext() {
          return scan.hasNext();
        }

        @Override
        public SourceRow next() {
          return SourceRow.of(scan.next());
        }

        @Override
        public void close() {
          session.close();
        }
      };
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }
}
