package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.copy.RangeResult.Differences;
import io.varve.reshaper.plan.CopyMode;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TokenRange;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import scala.Tuple2;

/**
 * The work of one Spark task: read a token range of the source and write (or check) the target rows
 * it yields, and say what happened in a {@link RangeResult}. A task stops early at a conflict or
 * once it holds more than {@code failures.maxBadRows} bad rows, since the job stops then anyway.
 * Serializable; sessions come from the connector's per-executor cache.
 */
public final class RangeTask implements Serializable {
  private static final long serialVersionUID = 1L;
  private final CassandraConnector source;
  private final CassandraConnector target;
  private final MigrationPlan plan;
  private final JobConfig config;
  private final double rowsPerSecond;
  private final double bytesPerSecond;

  /**
   * @param rowsPerSecond this task's share of {@code rateLimit.rowsPerSecond}, 0 = none
   * @param bytesPerSecond this task's share of {@code rateLimit.megabytesPerSecond}, in bytes
   */
  public RangeTask(
      CassandraConnector source,
      CassandraConnector target,
      MigrationPlan plan,
      JobConfig config,
      double rowsPerSecond,
      double bytesPerSecond) {
    this.source = source;
    this.target = target;
    this.plan = plan;
    this.config = config;
    this.rowsPerSecond = rowsPerSecond;
    this.bytesPerSecond = bytesPerSecond;
  }

  /** Copies one range (modes DIRECT and IN_PARTITION). */
  public RangeResult copy(TokenRange range) {
    try (CqlSession in = source.openSession();
        CqlSession out = target.openSession()) {
      BadRows bad = new BadRows();
      TargetWriter writer = newWriter(out, bad);
      Scanned scanned = scan(in, range, writer, bad);
      writer.finish();
      return new RangeResult(
          range.index(),
          scanned.complete(),
          scanned.read,
          writer.written(),
          bad.all(),
          scanned.conflict,
          Differences.NONE);
    }
  }

  /** Validates one range against the target, copying missing rows when asked. */
  public RangeResult validate(TokenRange range, boolean copyMissing) {
    try (CqlSession in = source.openSession();
        CqlSession out = target.openSession()) {
      BadRows bad = new BadRows();
      TargetWriter writer = copyMissing ? newWriter(out, bad) : null;
      TargetChecker checker = newChecker(out, writer);
      Scanned scanned = scan(in, range, checker, bad);
      checker.finish();
      return new RangeResult(
          range.index(),
          scanned.complete(),
          scanned.read,
          writer == null ? 0 : writer.written(),
          bad.all(),
          scanned.conflict,
          checker.differences());
    }
  }

  /**
   * Reads one range as (target key, row) pairs for a shuffle (mode SHUFFLE). The range is held in
   * memory: give such jobs a splitCount that keeps ranges small.
   */
  public List<Tuple2<RowKey, Resolved>> readKeyed(TokenRange range) {
    List<Tuple2<RowKey, Resolved>> rows = new ArrayList<>();
    try (CqlSession in = source.openSession()) {
      RangeScan scan = newScan(in, range);
      while (scan.hasNext()) {
        TargetRow row = TargetRow.from(scan.next(), plan, config.source().preserveTimestamps());
        rows.add(new Tuple2<>(row.key(plan.target().primaryKeyCount()), Resolved.of(row)));
      }
    }
    return rows;
  }

  /**
   * Writes or validates the rows resolved by a shuffle; the rows read are those the resolved rows
   * were chosen from.
   */
  public RangeResult handleResolved(
      Iterator<Resolved> rows, boolean validate, boolean copyMissing) {
    try (CqlSession out = target.openSession()) {
      BadRows bad = new BadRows();
      TargetWriter writer = !validate || copyMissing ? newWriter(out, bad) : null;
      TargetChecker checker = validate ? newChecker(out, writer) : null;
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

  private Scanned scan(CqlSession in, TokenRange range, RowSink sink, BadRows bad) {
    RangeScan scan = newScan(in, range);
    RowConversion conversion = new RowConversion(plan, config, bad);
    Scanned scanned = new Scanned();
    if (plan.mode() == CopyMode.DIRECT) {
      // a re-partitioning scatters a source partition's rows over target partitions
      PartitionGrouping grouped =
          plan.sliceKeys() == null
              ? null
              : new PartitionGrouping(sink, plan.target().partitionKeyCount());
      while (scan.hasNext() && !scanned.stopsBefore(bad)) {
        TargetRow row = conversion.of(scan.next());
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
    while (scan.hasNext() && !scanned.stopsBefore(bad)) {
      Row row = scan.next();
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

  private RangeScan newScan(CqlSession in, TokenRange range) {
    return new RangeScan(
        in,
        in.prepare(plan.source().selectCql()),
        range,
        config.source().fetchSize(),
        config.source().consistencyLevel());
  }

  private TargetWriter newWriter(CqlSession out, BadRows bad) {
    return new TargetWriter(out, plan, config, rowsPerSecond, bytesPerSecond, bad);
  }

  private TargetChecker newChecker(CqlSession out, TargetWriter writer) {
    return new TargetChecker(
        out,
        plan,
        DefaultConsistencyLevel.valueOf(config.target().consistencyLevel()),
        config.validation().failuresToFetch(),
        config.writer().maxInFlight(),
        writer);
  }
}
