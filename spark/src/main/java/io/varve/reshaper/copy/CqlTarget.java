package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.WorkUnit;

/**
 * The writer side of a table target: each unit's rows go through a {@link TargetWriter} on a
 * session from the connector's per-executor cache; validation compares with a {@link
 * TargetChecker}.
 */
public final class CqlTarget implements TargetSide {
  private static final long serialVersionUID = 1L;
  private final CassandraConnector connector;
  private final MigrationPlan plan;
  private final JobConfig config;

  public CqlTarget(CassandraConnector connector, MigrationPlan plan, JobConfig config) {
    this.connector = connector;
    this.plan = plan;
    this.config = config;
  }

  @Override
  public RowWriter open(WorkUnit unit, BadRows bad, double rowsPerSecond, double bytesPerSecond) {
    CqlSession session = connector.openSession();
    try {
      return new TargetWriter(session, plan, config, rowsPerSecond, bytesPerSecond, bad);
    } catch (RuntimeException e) {
      session.close();
      throw e;
    }
  }

  /** A session for a checker; the caller closes it. */
  CqlSession openSession() {
    return connector.openSession();
  }

  /** A checker on {@code session} that hands missing rows to {@code writer}, if not null. */
  TargetChecker checker(CqlSession session, RowWriter writer) {
    return new TargetChecker(
        session,
        plan,
        DefaultConsistencyLevel.valueOf(config.target().consistencyLevel()),
        config.validation(),
        config.writer().maxInFlight(),
        writer);
  }
}
