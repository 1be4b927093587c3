package io.varve.reshaper.copy;

import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.SliceKeys;

/**
 * Turns the scanned source rows of one task into the target rows the plan says, for the writer and
 * the checker alike: the target's columns ({@link TargetRow#from}), then the slice's computed keys
 * when the plan has them ({@link SliceKeys}). A row that is not of the slice is a bad row, kept as
 * the CQL that would write it (its buckets computed by the same functions), and is not passed on.
 * Not thread-safe.
 */
final class RowConversion {
  private final MigrationPlan plan;
  private final boolean keepTimes;
  private final Upserts upserts;
  private final BadRows bad;

  RowConversion(MigrationPlan plan, JobConfig config, BadRows bad) {
    this.plan = plan;
    this.keepTimes = keepsTimes(plan, config);
    this.upserts =
        new Upserts(
            plan, config.target().writeTimestampMicros(), (int) config.target().writeTtlSeconds());
    this.bad = bad;
  }

  /**
   * True when target rows carry the source's writetimes and TTLs: when they are preserved, or read
   * to be compared (validation's {@code compareTimestamps}).
   */
  static boolean keepsTimes(MigrationPlan plan, JobConfig config) {
    return config.source().preserveTimestamps()
        || plan.target().columns().stream().anyMatch(c -> c.writetimeIndex() >= 0);
  }

  /** The target row of a scanned source row, or null when it is a bad row (kept). */
  TargetRow of(SourceRow row) {
    if (row.error() != null) {
      // not a statement: replay skips it, and the comment says what the source held
      bad.add(BadRow.described(row.describe(), row.error()));
      return null;
    }
    TargetRow target = TargetRow.from(row, plan, keepTimes);
    SliceKeys keys = plan.sliceKeys();
    if (keys == null) {
      return target;
    }
    String outside = keys.fill(target.values);
    if (outside == null) {
      return target;
    }
    bad.add(new BadRow(upserts.cql(target, upserts.of(target)), outside));
    return null;
  }
}
