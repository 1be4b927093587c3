package io.varve.reshaper.plan;

import com.datastax.oss.driver.api.core.type.DataType;
import io.varve.reshaper.config.OnConflict;
import java.io.Serializable;
import java.util.List;

/**
 * What a job reads, how each target column is filled and how collisions are resolved, checked
 * against both schemas by {@link Planner}. Serializable: it travels to Spark executors.
 *
 * @param selectCql the scan of one token range: two bind markers, start (exclusive) and end
 * @param sourcePartitionKeyCount the first columns of the select list that form the source
 *     partition key
 * @param targetColumns the target columns, partition key first, then clustering, then others
 * @param targetPartitionKeyCount how many leading target columns form its partition key
 * @param targetPrimaryKeyCount how many leading target columns form its primary key
 * @param targetTable the target table in CQL form, {@code keyspace.table}
 * @param insertCql the upsert of one target row, with every target column
 * @param insertWithTimestampCql the same with {@code USING TIMESTAMP ? AND TTL ?}
 * @param mode how rows travel, see {@link CopyMode}
 * @param onConflict the rule for colliding rows; null in {@link CopyMode#DIRECT}
 * @param ruleColumn the target column index the rule compares, or -1
 * @param ruleType its type, or null
 * @param newestWritetimeIndexes select-list positions of every writetime the rule
 *     keepNewestWritetime compares
 * @param targetGroupedBySourcePartition true when each source partition maps to one target
 *     partition, so a source partition's rows can share one unlogged batch
 * @param fingerprint identifies the job's data movement in savepoints
 */
public record MigrationPlan(
    String selectCql,
    int sourcePartitionKeyCount,
    List<TargetColumn> targetColumns,
    int targetPartitionKeyCount,
    int targetPrimaryKeyCount,
    String targetTable,
    String insertCql,
    String insertWithTimestampCql,
    CopyMode mode,
    OnConflict onConflict,
    int ruleColumn,
    DataType ruleType,
    int[] newestWritetimeIndexes,
    boolean targetGroupedBySourcePartition,
    String fingerprint) implements Serializable {

  /** The select statement of a target row by its primary key (for validation). */
  public String targetLookupCql() {
    StringBuilder cql = new StringBuilder("SELECT ");
    for (int i = 0; i < targetColumns.size(); i++) {
      cql.append(i == 0 ? "" : ", ").append(targetColumns.get(i).name());
    }
    cql.append(" FROM ").append(targetTable).append(" WHERE ");
    for (int i = 0; i < targetPrimaryKeyCount; i++) {
      cql.append(i == 0 ? "" : " AND ").append(targetColumns.get(i).name()).append(" = ?");
    }
    return cql.toString();
  }
}
