package io.varve.reshaper.job;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.metadata.schema.TableMetadata;
import io.varve.reshaper.cluster.Cluster;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.Planner;
import io.varve.reshaper.plan.TableSchema;
import io.varve.reshaper.plan.TokenRange;
import io.varve.reshaper.savepoint.Savepoint;
import java.nio.file.Path;
import java.util.List;

/**
 * A job checked against both clusters and planned, before anything is written: its plan, its token
 * ranges and those still to do.
 *
 * @param plan the plan
 * @param targetTable the target table, as the driver describes it
 * @param ranges every token range of the job
 * @param todo the ranges no earlier run recorded as done
 * @param savepoint the savepoint of a copy, or null (validation keeps none)
 */
record PreparedJob(
    MigrationPlan plan,
    TableMetadata targetTable,
    List<TokenRange> ranges,
    List<TokenRange> todo,
    Savepoint savepoint) {

  /** Checks the partitioner and both schemas, prepares both statements and cuts the ring. */
  static PreparedJob prepare(
      JobConfig config,
      ReshapeJob.Kind kind,
      Cluster source,
      Cluster target,
      CqlSession in,
      CqlSession out) {
    String partitioner =
        in.getMetadata().getTokenMap().map(TokenMap::getPartitionerName).orElse("unknown");
    if (!partitioner.endsWith("Murmur3Partitioner")) {
      throw new ConfigException(
          "source.host",
          config.source().hosts() + " uses " + partitioner,
          "a cluster with Murmur3Partitioner, the only partitioner whose ring the job splits");
    }
    TableMetadata sourceTable = source.table(in);
    TableMetadata targetTable = target.table(out);
    MigrationPlan plan =
        new Planner(config, TableSchema.of(sourceTable), TableSchema.of(targetTable)).plan();
    try {
      in.prepare(plan.source().selectCql());
    } catch (RuntimeException e) {
      String where = config.source().where();
      throw new ConfigException(
          where != null ? "source.where" : "source",
          where != null ? where : plan.source().selectCql(),
          "a condition the source accepts; it said: " + e.getMessage());
    }
    out.prepare(plan.target().insertCql());
    int splits =
        config.source().splitCount() > 0
            ? config.source().splitCount()
            : Math.max(64, 256 * in.getMetadata().getNodes().size());
    List<TokenRange> ranges = TokenRange.split(splits);
    Savepoint savepoint =
        kind == ReshapeJob.Kind.COPY
            ? Savepoint.open(
                Path.of(config.savepoints().path()), config.jobName(), plan.fingerprint(), splits)
            : null;
    List<TokenRange> todo =
        ranges.stream().filter(r -> savepoint == null || !savepoint.isDone(r.index())).toList();
    return new PreparedJob(plan, targetTable, ranges, todo, savepoint);
  }

  /** How many ranges earlier runs did. */
  int alreadyDone() {
    return ranges.size() - todo.size();
  }
}
