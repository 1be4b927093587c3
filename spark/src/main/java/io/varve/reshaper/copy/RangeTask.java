package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.CqlSession;
import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.RangeResult.Differences;
import io.varve.reshaper.copy.SourceReader.UnitRows;
import io.varve.reshaper.plan.CopyMode;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TokenRange;
import io.varve.reshaper.plan.WorkUnit;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import scala.Tuple2;

/**
 * The work of a Spark task: read units of the source (token ranges, files) with the source type's
 * {@link SourceReader} and write the target rows they yield with the target type's {@link
 * RowWriter} (or check them against a table), and say what happened to each unit in a {@link
 * RangeResult}. A task stops early at a conflict or once it holds more than {@code
 * failures.maxBadRows} bad rows, since the job stops then anyway. Serializable.
 */
public final class RangeTask implements Serializable {
  private static final long serialVersionUID = 1L;
  private final SourceReader reader;
  private final TargetSide target;
  private final MigrationPlan plan;
  private final JobConfig config;
  private final double rowsPerSecond;
  private final double bytesPerSecond;

  /**
   * @param rowsPerSecond this task's share of {@code rateLimit.rowsPerSecond}, 0 = none
   * @param bytesPerSecond this task's share of {@code rateLimit.megabytesPerSecond}, in bytes
   */
  public RangeTask(
      SourceReader reader,
      TargetSide target,
      MigrationPlan plan,
      JobConfig config,
      double rowsPerSecond,
      double bytesPerSecond) {
    this.reader = reader;
    this.target = target;
    this.plan = plan;
    this.config = config;
    this.rowsPerSecond = rowsPerSecond;
    this.bytesPerSecond = bytesPerSecond;
  }

  /**
   * Copies the units of one task, in order (modes DIRECT and IN_PARTITION), and returns a result
   * for each unit it read to its end or stopped in. The writes of a unit are still completing while
   * the next unit is read: a writer with writes in flight ({@link RowWriter#writesInFlight}) is
   * finished, and its unit's result made, only once the next unit's rows are handed over, so the
   * target is kept busy across the units' boundaries. At most two writers are open at once, the one
   * finishing holding only its requests in flight; other writers finish with their unit. The task
   * stops at the first unit that stops early (a conflict, too many bad rows), and before starting a
   * unit once its finished units hold more than {@code failures.maxBadRows} bad rows.
   */
  public List<RangeResult> copy(List<? extends WorkUnit> units) {
    List<RangeResult> results = new ArrayList<>(units.size());
    long badSoFar = 0;
    UnitCopy finishing = null;
    try {
      for (WorkUnit unit : units) {
        if (badSoFar > config.failures().maxBadRows()) {
          break;
        }
        UnitCopy current = new UnitCopy(unit);
        try {
          current.scan();
        } catch (RuntimeException e) {
          current.close();
          throw e;
        }
        // the unit read now is the one to close if finishing the one before fails
        UnitCopy previous = finishing;
        finishing = current;
        if (previous != null) {
          badSoFar += add(results, previous.finish());
        }
        if (!current.writer.writesInFlight()) {
          finishing = null;
          badSoFar += add(results, current.finish());
        }
        if (!current.scanned.complete()) {
          break;
        }
      }
      if (finishing != null) {
        UnitCopy last = finishing;
        finishing = null;
        results.add(last.finish());
      }
      return results;
    } finally {
      if (finishing != null) {
        finishing.close();
      }
    }
  }

  /** Adds {@code result} to {@code results}; returns its bad rows. */
  private static int add(List<RangeResult> results, RangeResult result) {
    results.add(result);
    return result.badRows().size();
  }

  /** One unit's copy: its rows handed to its writer, then its writes awaited and committed. */
  private final class UnitCopy {
    private final WorkUnit unit;
    private final BadRows bad = new BadRows();
    private final RowWriter writer;
    private Scanned scanned;

    UnitCopy(WorkUnit unit) {
      this.unit = unit;
      this.writer = newWriter(unit, bad);
    }

    /** Reads the unit and hands its rows to the writer; writes may still be in flight after. */
    void scan() {
      try (UnitRows rows = reader.open(unit)) {
        scanned = RangeTask.this.scan(rows, writer, bad);
      }
    }

    /** Waits for the unit's writes, commits a unit read whole, closes the writer. */
    RangeResult finish() {
      try (writer) {
        writer.finish();
        if (scanned.complete()) {
          writer.commit();
        }
        return new RangeResult(
            unit.index(),
            scanned.complete(),
            scanned.read,
            writer.written(),
            bad.all(),
            scanned.conflict,
            Differences.NONE);
      }
    }

    /** Releases the writer without waiting, discarding what it did not commit. */
    void close() {
      writer.close();
    }
  }

  /**
   * Validates the units of one task against a table target, in order, copying missing rows when
   * asked; stops after a unit that stops early.
   */
  public List<RangeResult> validate(List<? extends WorkUnit> units, boolean copyMissing) {
    List<RangeResult> results = new ArrayList<>(units.size());
    for (WorkUnit unit : units) {
      RangeResult r = validate(unit, copyMissing);
      results.add(r);
      if (!r.complete()) {
        break;
      }
    }
    return results;
  }

  /** Validates one unit against a table target, copying missing rows when asked. */
  public RangeResult validate(WorkUnit unit, boolean copyMissing) {
    CqlTarget table = (CqlTarget) target;
    BadRows bad = new BadRows();
    try (UnitRows rows = reader.open(unit);
        CqlSession out = table.openSession();
        RowWriter writer = copyMissing ? newWriter(unit, bad) : null) {
      TargetChecker checker = table.checker(out, writer);
      Scanned scanned = scan(rows, checker, bad);
      checker.finish();
      return new RangeResult(
          unit.index(),
          scanned.complete(),
          scanned.read,
          writer == null ? 0 : writer.written(),
          bad.all(),
          scanned.conflict,
          checker.differences());
    }
  }

  /**
   * Reads one unit as (target key, row) pairs for a shuffle (mode SHUFFLE). The unit is held in
   * memory: give such jobs a splitCount that keeps ranges small.
   */
  public List<Tuple2<RowKey, Resolved>> readKeyed(WorkUnit unit) {
    List<Tuple2<RowKey, Resolved>> keyed = new ArrayList<>();
    try (UnitRows rows = reader.open(unit)) {
      while (rows.hasNext()) {
        TargetRow row = TargetRow.from(rows.next(), plan, RowConversion.keepsTimes(plan, config));
        keyed.add(new Tuple2<>(row.key(plan.target().primaryKeyCount()), Resolved.of(row)));
      }
    }
    return keyed;
  }

  /**
   * Writes or validates the rows resolved by a shuffle; the rows read are those the resolved rows
   * were chosen from.
   */
  public RangeResult handleResolved(
      Iterator<Resolved> rows, boolean validate, boolean copyMissing) {
    BadRows bad = new BadRows();
    try (RowWriter writer = !validate || copyMissing ? newWriter(null, bad) : null;
        CqlSession out = validate ? ((CqlTarget) target).openSession() : null) {
      TargetChecker checker = validate ? ((CqlTarget) target).checker(out, writer) : null;
      RowSink sink = validate ? checker : writer;
      Scanned scanned = new Scanned();
      while (rows.hasNext() && !scanned.stopsBefore(bad)) {
        Resolved r = rows.next();
        scanned.read += r.sourceRows();
        if (r.conflict() != null) {
          scanned.conflict = r.conflict();
        } else {
          sink.accept(r.row());
        }
      }
      sink.finish();
      if (writer != null && scanned.complete()) {
        writer.commit();
      }
      return new RangeResult(
          -1,
          scanned.complete(),
          scanned.read,
          writer == null ? 0 : writer.written(),
          bad.all(),
          scanned.conflict,
          validate ? checker.differences() : Differences.NONE);
    }
  }

  /**
   * The primary keys of the target rows that the source rows of one unit make (validation's search
   * for rows only in the target); rows that are bad rows make none.
   */
  public List<RowKey> targetKeys(WorkUnit unit) {
    List<RowKey> keys = new ArrayList<>();
    RowConversion conversion = new RowConversion(plan, config, new BadRows());
    try (UnitRows rows = reader.open(unit)) {
      while (rows.hasNext()) {
        TargetRow row = conversion.of(rows.next());
        if (row != null) {
          keys.add(row.key(plan.target().primaryKeyCount()));
        }
      }
    }
    return keys;
  }

  /** The primary keys of the target table's rows in one token range. */
  public List<RowKey> presentKeys(TokenRange range) {
    List<RowKey> keys = new ArrayList<>();
    int count = plan.target().primaryKeyCount();
    try (CqlSession out = ((CqlTarget) target).openSession()) {
      RangeScan scan =
          new RangeScan(
              out,
              out.prepare(plan.target().keyScanCql()).bind(range.start(), range.end()),
              config.source().fetchSize(),
              config.target().consistencyLevel());
      while (scan.hasNext()) {
        var row = scan.next();
        byte[][] key = new byte[count][];
        for (int i = 0; i < count; i++) {
          key[i] = TargetRow.bytes(row.getBytesUnsafe(i));
        }
        keys.add(new RowKey(key));
      }
    }
    return keys;
  }

  /** The rule, for the shuffle's reduce step. */
  public ConflictRule rule() {
    return new ConflictRule(plan);
  }

  /** How far a task got. */
  private final class Scanned {
    long read;
    String conflict;
    boolean stoppedEarly;

    /** True, and the task is incomplete, when rows remain but the job will stop anyway. */
    boolean stopsBefore(BadRows bad) {
      stoppedEarly = conflict != null || bad.count() > config.failures().maxBadRows();
      return stoppedEarly;
    }

    boolean complete() {
      return conflict == null && !stoppedEarly;
    }
  }

  private Scanned scan(UnitRows rows, RowSink sink, BadRows bad) {
    RowConversion conversion = new RowConversion(plan, config, bad);
    Scanned scanned = new Scanned();
    if (plan.mode() == CopyMode.DIRECT) {
      // a re-partitioning scatters a source partition's rows over target partitions
      PartitionGrouping grouped =
          plan.sliceKeys() == null
              ? null
              : new PartitionGrouping(sink, plan.target().partitionKeyCount());
      while (rows.hasNext() && !scanned.stopsBefore(bad)) {
        TargetRow row = conversion.of(rows.next());
        if (row != null) {
          if (grouped == null) {
            sink.accept(row);
          } else {
            grouped.accept(row);
          }
        }
        scanned.read++;
      }
      if (grouped != null) {
        grouped.flush();
      }
      return scanned;
    }
    PartitionResolver resolver =
        new PartitionResolver(rule(), plan.target().primaryKeyCount(), sink);
    ByteBuffer[] partition = null;
    while (rows.hasNext() && !scanned.stopsBefore(bad)) {
      SourceRow row = rows.next();
      ByteBuffer[] key = new ByteBuffer[plan.source().partitionKeyCount()];
      for (int i = 0; i < key.length; i++) {
        key[i] = row.getBytesUnsafe(i);
      }
      if (partition != null && !Arrays.equals(partition, key)) {
        resolver.endPartition();
      }
      partition = key;
      TargetRow target = conversion.of(row);
      if (target != null) {
        resolver.accept(target);
      }
      scanned.read++;
      scanned.conflict = resolver.conflict();
    }
    if (scanned.complete()) {
      resolver.endPartition();
    }
    return scanned;
  }

  private RowWriter newWriter(WorkUnit unit, BadRows bad) {
    return target.open(unit, bad, rowsPerSecond, bytesPerSecond);
  }
}
