package io.varve.reshaper.copy;

import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TargetColumn;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The upserts that write one target row: one per distinct (writetime, TTL) of its cells when they
 * are kept, else one, at the job's fixed timestamp and TTL if any. The writer binds them; a row
 * that cannot be written is kept as their CQL text. Thread-safe.
 */
final class Upserts {

  /**
   * One upsert: the key columns and {@code columns} (all when null), with their values if present
   * (a missing value stays unset: no tombstone).
   *
   * @param timed whether it says {@code USING TIMESTAMP timestamp AND TTL ttl}
   */
  record Upsert(boolean[] columns, boolean timed, long timestamp, int ttl) {
    boolean binds(int column, int keyColumns) {
      return column < keyColumns || columns == null || columns[column];
    }
  }

  private final MigrationPlan plan;
  private final long fixedTimestamp;
  private final int fixedTtl;

  /**
   * @param fixedTimestamp {@code target.writeWritetimestampInuS}, 0 = the server's time
   * @param fixedTtl {@code target.writeTTLInS}, 0 = none
   */
  Upserts(MigrationPlan plan, long fixedTimestamp, int fixedTtl) {
    this.plan = plan;
    this.fixedTimestamp = fixedTimestamp;
    this.fixedTtl = fixedTtl;
  }

  List<Upsert> of(TargetRow row) {
    int n = row.values.length;
    if (row.writetimes == null) {
      if (fixedTimestamp == 0 && fixedTtl == 0) {
        return List.of(new Upsert(null, false, 0, 0));
      }
      return List.of(
          new Upsert(
              null,
              true,
              fixedTimestamp == 0 ? System.currentTimeMillis() * 1000 : fixedTimestamp,
              fixedTtl));
    }
    int keys = plan.target().primaryKeyCount();
    Map<List<Long>, List<Integer>> groups = new LinkedHashMap<>();
    for (int i = keys; i < n; i++) {
      if (row.values[i] != null && row.writetimes[i] != TargetRow.NO_WRITETIME) {
        groups
            .computeIfAbsent(List.of(row.writetimes[i], (long) row.ttls[i]), k -> new ArrayList<>())
            .add(i);
      }
    }
    List<Upsert> out = new ArrayList<>();
    boolean[] covered = new boolean[n];
    for (List<Integer> columns : groups.values()) {
      boolean[] include = new boolean[n];
      for (int i : columns) {
        include[i] = true;
        covered[i] = true;
      }
      int first = columns.get(0);
      out.add(new Upsert(include, true, row.writetimes[first], row.ttls[first]));
    }
    boolean rest = out.isEmpty();
    for (int i = keys; i < n; i++) {
      rest |= row.values[i] != null && !covered[i];
    }
    if (rest) {
      boolean[] include = new boolean[n];
      for (int i = 0; i < n; i++) {
        include[i] = !covered[i];
      }
      out.add(new Upsert(include, false, 0, 0));
    }
    return out;
  }

  /** The CQL text of {@code upserts} of {@code row}: one statement, or an unlogged batch. */
  String cql(TargetRow row, List<Upsert> upserts) {
    List<String> statements = new ArrayList<>();
    for (Upsert u : upserts) {
      List<String> names = new ArrayList<>();
      List<String> values = new ArrayList<>();
      for (int i = 0; i < row.values.length; i++) {
        if (u.binds(i, plan.target().primaryKeyCount()) && row.values[i] != null) {
          TargetColumn column = plan.target().columns().get(i);
          names.add(column.name());
          values.add(TargetRow.format(column, row.values[i]));
        }
      }
      statements.add(
          "INSERT INTO "
              + plan.target().table()
              + " ("
              + String.join(", ", names)
              + ") VALUES ("
              + String.join(", ", values)
              + ")"
              + (u.timed() ? " USING TIMESTAMP " + u.timestamp() + " AND TTL " + u.ttl() : ""));
    }
    return statements.size() == 1
        ? statements.get(0)
        : "BEGIN UNLOGGED BATCH " + String.join("; ", statements) + "; APPLY BATCH";
  }
}
