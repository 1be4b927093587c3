package io.varve.reshaper.plan;

import static io.varve.reshaper.plan.TableSchema.names;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.type.DataType;
import com.datastax.oss.driver.api.core.type.DataTypes;
import com.datastax.oss.driver.api.core.type.codec.registry.CodecRegistry;
import io.varve.reshaper.config.ConfigException;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.config.OnConflict;
import io.varve.reshaper.plan.TableSchema.Column;
import java.io.Serializable;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How rows travel and how rows that land on one target key are resolved, chosen from the two
 * primary keys by the fourth step of a plan ({@link #of}).
 *
 * @param mode how rows travel, see {@link CopyMode}
 * @param onConflict the rule for colliding rows; null in {@link CopyMode#DIRECT}
 * @param ruleColumn the target column index the rule compares, or -1
 * @param ruleType its type, or null
 * @param newestWritetimeIndexes select-list positions of every writetime the rule
 *     keepNewestWritetime compares
 */
public record Resolution(
    CopyMode mode,
    OnConflict onConflict,
    int ruleColumn,
    DataType ruleType,
    int[] newestWritetimeIndexes)
    implements Serializable {

  static Resolution of(
      JobConfig config,
      TableSchema source,
      TableSchema target,
      ColumnMapping mapping,
      TargetLayout layout,
      SelectList select) {
    Set<CqlIdentifier> targetKey =
        target.primaryKey().stream().map(Column::name).collect(Collectors.toSet());
    var toTarget = mapping.sourceToTarget();
    // A computed target key column (a slice's bucket) is a function of source key columns that
    // reach the target key: the source column of its name, which it replaces, counts as reaching
    // it.
    boolean allSourceKeysInTargetKey =
        source.primaryKey().stream()
            .allMatch(
                c ->
                    targetKey.contains(toTarget.get(c.name()))
                        || (mapping.computed().contains(c.name()) && targetKey.contains(c.name())));
    boolean sourcePartitionInTargetKey =
        source.partitionKey().stream().allMatch(c -> targetKey.contains(toTarget.get(c.name())));
    OnConflict rule = config.reshape().onConflict();
    if (config.target().isParquet()) {
      // files keep every row: no key to collide on
      return new Resolution(CopyMode.DIRECT, null, -1, null, new int[0]);
    }
    if (source.primaryKey().isEmpty() && rule == null) {
      // rows without a key (a Parquet source): each is written, a later one on the same target
      // key overwriting an earlier one, as an upsert does
      return new Resolution(CopyMode.DIRECT, null, -1, null, new int[0]);
    }
    if (allSourceKeysInTargetKey && !source.primaryKey().isEmpty()) {
      return new Resolution(CopyMode.DIRECT, null, -1, null, new int[0]);
    }
    if (rule == null) {
      throw new ConfigException(
          "reshape.onConflict",
          "missing",
          "a rule (keepMax, keepMin, keepNewestWritetime or fail): the target primary key ("
              + names(target.primaryKey())
              + ") does not hold every source primary-key column ("
              + names(source.primaryKey())
              + "), so several source rows can land on one"
              + " target row");
    }
    // rows without a key come in no partition order: only a shuffle brings colliding ones together
    CopyMode mode =
        sourcePartitionInTargetKey && !source.partitionKey().isEmpty()
            ? CopyMode.IN_PARTITION
            : CopyMode.SHUFFLE;
    int ruleColumn = -1;
    DataType ruleType = null;
    if (rule.needsColumn()) {
      CqlIdentifier id = CqlIdentifier.fromCql(config.reshape().column());
      Column column =
          target
              .column(id)
              .orElseThrow(
                  () ->
                      new ConfigException(
                          "reshape.column",
                          config.reshape().column(),
                          "a column of target table "
                              + config.target().qualifiedTable()
                              + ": "
                              + names(target.columns())));
      ruleType = column.type();
      Class<?> javaType = CodecRegistry.DEFAULT.codecFor(ruleType).getJavaType().getRawType();
      if (!Comparable.class.isAssignableFrom(javaType) || ruleType.equals(DataTypes.DURATION)) {
        throw new ConfigException(
            "reshape.column",
            config.reshape().column(),
            "a column of an ordered type (number, text, timestamp, date, time, uuid, inet,"
                + " boolean, blob), but it is "
                + ruleType.asCql(true, true));
      }
      for (int i = 0; i < layout.columns().size(); i++) {
        if (layout.columns().get(i).name().equals(column.cql())) {
          ruleColumn = i;
        }
      }
    }
    int[] newest =
        rule == OnConflict.KEEP_NEWEST_WRITETIME
            ? select.writetimeIndex().values().stream().mapToInt(Integer::intValue).toArray()
            : new int[0];
    return new Resolution(mode, rule, ruleColumn, ruleType, newest);
  }
}
