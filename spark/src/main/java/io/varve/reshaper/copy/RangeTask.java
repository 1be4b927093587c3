package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.CopyMode;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TokenRange;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import scala.Tuple2;

/**
 * The work of one Spark task: read a token range of the source and write (or check) the
 * target rows it yields. Serializable; sessions come from the connector's per-executor cache.
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
  public RangeTask(CassandraConnector source, CassandraConnector target, MigrationPlan plan,
      JobConfig config, double rowsPerSecond, double bytesPerSecond) {
    this.source = source;
    this.target = target;
    this.plan = plan;
    this.config = config;
    this.rowsPerSecond = rowsPerSecond;
    this.bytesPerSecond = bytesPerSecond;
  }

  /** Copies one range (modes DIRECT and IN_PARTITION). */
  public RangeResult copy(TokenRange range) {
    try (CqlSession in = source.openSession(); CqlSession out = target.openSession()) {
      BadRows bad = new BadRows(keepBadRows());
      TargetWriter writer = newWriter(out, bad);
      long read = scan(in, range, writer);
      writer.finish();
      return new RangeResult(range.index(), read, writer.written(), bad.count(), bad.lines(),
          0, 0, List.of());
    }
  }

  /** Validates one range against the target, copying missing rows when asked. */
  public RangeResult validate(TokenRange range, boolean copyMissing) {
    try (CqlSession in = source.openSession(); CqlSession out = target.openSession()) {
      BadRows bad = new BadRows(keepBadRows());
      TargetWriter writer = copyMissing ? newWriter(out, bad) : null;
      TargetChecker checker = newChecker(out, writer);
      long read = scan(in, range, checker);
      checker.finish();
      return new RangeResult(range.index(), read, writer == null ? 0 : writer.written(),
          bad.count(), bad.lines(), checker.missing(), checker.mismatched(), checker.samples());
    }
  }

  /**
   * Reads one range as (target key, row) pairs for a shuffle (mode SHUFFLE). The range is held
   * in memory: give such jobs a splitCount that keeps ranges small.
   */
  public List<Tuple2<RowKey, TargetRow>> readKeyed(TokenRange range) {
    List<Tuple2<RowKey, TargetRow>> rows = new ArrayList<>();
    try (CqlSession in = source.openSession()) {
      RangeScan scan = new RangeScan(in, prepareSelect(in), range,
          config.source().fetchSize(), config.source().consistencyLevel());
      while (scan.hasNext()) {
        TargetRow row = TargetRow.from(scan.next(), plan, config.source().preserveTimestamps());
        rows.add(new Tuple2<>(row.key(plan.target().primaryKeyCount()), row));
      }
    }
    return rows;
  }

  /** Writes or validates resolved rows after a shuffle. */
  public RangeResult handleResolved(Iterator<TargetRow> rows, boolean validate,
      boolean copyMissing) {
    try (CqlSession out = target.openSession()) {
      BadRows bad = new BadRows(keepBadRows());
      TargetWriter writer = !validate || copyMissing ? newWriter(out, bad) : null;
      RowSink sink = validate ? newChecker(out, writer) : writer;
      long count = 0;
      while (rows.hasNext()) {
        sink.accept(rows.next());
        count++;
      }
      sink.finish();
      if (sink instanceof TargetChecker checker) {
        return new RangeResult(-1, 0, writer == null ? 0 : writer.written(), bad.count(),
            bad.lines(), checker.missing(), checker.mismatched(), checker.samples());
      }
      return new RangeResult(-1, 0, count, bad.count(), bad.lines(), 0, 0, List.of());
    }
  }

  /** The rule, for the shuffle's reduce step. */
  public ConflictRule rule() {
    return new ConflictRule(plan);
  }

  private long scan(CqlSession in, TokenRange range, RowSink sink) {
    RangeScan scan = new RangeScan(in, prepareSelect(in), range, config.source().fetchSize(),
        config.source().consistencyLevel());
    boolean keepTimes = config.source().preserveTimestamps();
    long read = 0;
    if (plan.mode() == CopyMode.DIRECT) {
      while (scan.hasNext()) {
        sink.accept(TargetRow.from(scan.next(), plan, keepTimes));
        read++;
      }
      return read;
    }
    PartitionResolver resolver = new PartitionResolver(rule(), plan.target().primaryKeyCount(), sink);
    ByteBuffer[] partition = null;
    while (scan.hasNext()) {
      Row row = scan.next();
      ByteBuffer[] key = new ByteBuffer[plan.source().partitionKeyCount()];
      for (int i = 0; i < key.length; i++) {
        key[i] = row.getBytesUnsafe(i);
      }
      if (partition != null && !java.util.Arrays.equals(partition, key)) {
        resolver.endPartition();
      }
      partition = key;
      resolver.accept(TargetRow.from(row, plan, keepTimes));
      read++;
    }
    resolver.endPartition();
    return read;
  }

  private PreparedStatement prepareSelect(CqlSession in) {
    return in.prepare(plan.source().selectCql());
  }

  private TargetWriter newWriter(CqlSession out, BadRows bad) {
    return new TargetWriter(out, plan, config, rowsPerSecond, bytesPerSecond, bad);
  }

  private TargetChecker newChecker(CqlSession out, TargetWriter writer) {
    return new TargetChecker(out, plan,
        DefaultConsistencyLevel.valueOf(config.target().consistencyLevel()),
        config.validation().failuresToFetch(), config.writer().maxInFlight(), writer);
  }

  private int keepBadRows() {
    return (int) Math.min(1000, config.failures().maxBadRows() + 1);
  }
}
