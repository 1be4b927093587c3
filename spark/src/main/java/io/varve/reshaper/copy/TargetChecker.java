package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.MigrationPlan;
import io.varve.reshaper.plan.TargetColumn;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Validation: looks up each expected target row by its primary key and compares every column
 * ({@code float}, {@code double} and {@code timestamp} columns within the tolerances of the {@code
 * validation} section, the others byte for byte) and, with {@code compareTimestamps}, each regular
 * column's writetime and TTL within theirs. Missing rows can be handed to a writer. One thread
 * calls {@link #accept}.
 */
final class TargetChecker implements RowSink {
  private final CqlSession session;
  private final MigrationPlan plan;
  private final PreparedStatement lookup;
  private final ConsistencyLevel consistency;
  private final int sampleLimit;
  private final JobConfig.Validation tolerances;
  private final int[] timesAt;
  private final Semaphore inFlight;
  private final int maxInFlight;
  private final RowSink missingWriter;
  private final AtomicLong missing = new AtomicLong();
  private final AtomicLong mismatched = new AtomicLong();
  private final List<String> samples = new ArrayList<>();
  private final Queue<TargetRow> toCopy = new ConcurrentLinkedQueue<>();
  private volatile RuntimeException failure;

  TargetChecker(
      CqlSession session,
      MigrationPlan plan,
      ConsistencyLevel consistency,
      JobConfig.Validation tolerances,
      int maxInFlight,
      RowSink missingWriter) {
    this.session = session;
    this.plan = plan;
    this.lookup = session.prepare(plan.target().lookupCql());
    this.consistency = consistency;
    this.sampleLimit = tolerances.failuresToFetch();
    this.tolerances = tolerances;
    // where the lookup's WRITETIME of column i is (its TTL follows), or -1
    List<TargetColumn> columns = plan.target().columns();
    this.timesAt = new int[columns.size()];
    int next = columns.size();
    for (int i = 0; i < columns.size(); i++) {
      timesAt[i] = columns.get(i).writetimeIndex() >= 0 ? next : -1;
      next += timesAt[i] >= 0 ? 2 : 0;
    }
    this.maxInFlight = maxInFlight;
    this.inFlight = new Semaphore(maxInFlight);
    this.missingWriter = missingWriter;
  }

  @Override
  public void accept(TargetRow expected) {
    if (failure != null) {
      throw failure;
    }
    BoundStatementBuilder b = lookup.boundStatementBuilder();
    for (int i = 0; i < plan.target().primaryKeyCount(); i++) {
      b.setBytesUnsafe(i, ByteBuffer.wrap(expected.values[i]));
    }
    inFlight.acquireUninterruptibly();
    session
        .executeAsync(b.setConsistencyLevel(consistency).setIdempotence(true).build())
        .whenComplete(
            (rs, error) -> {
              try {
                if (error != null) {
                  failure = new IllegalStateException("validation lookup failed: " + error, error);
                } else {
                  compare(expected, rs.one());
                }
              } finally {
                inFlight.release();
              }
            });
  }

  private void compare(TargetRow expected, Row actual) {
    int keys = plan.target().primaryKeyCount();
    if (actual == null) {
      missing.incrementAndGet();
      sample("missing: " + expected.describe(plan, keys));
      if (missingWriter != null) {
        toCopy.add(expected);
      }
      return;
    }
    List<String> differences = new ArrayList<>();
    for (int i = keys; i < expected.values.length; i++) {
      byte[] got = TargetRow.bytes(actual.getBytesUnsafe(i));
      var column = plan.target().columns().get(i);
      if (!Tolerances.sameValue(column.type(), expected.values[i], got, tolerances)) {
        differences.add(
            column.name()
                + " expected "
                + TargetRow.format(column, expected.values[i])
                + " got "
                + TargetRow.format(column, got));
      }
      if (tolerances.compareTimestamps() && timesAt[i] >= 0 && expected.writetimes != null) {
        String times =
            Tolerances.sameTimes(
                expected.writetimes[i],
                expected.ttls[i],
                actual.isNull(timesAt[i]) ? null : actual.getLong(timesAt[i]),
                actual.isNull(timesAt[i] + 1) ? 0 : actual.getInt(timesAt[i] + 1),
                tolerances);
        if (times != null) {
          differences.add(column.name() + " " + times);
        }
      }
    }
    if (!differences.isEmpty()) {
      mismatched.incrementAndGet();
      sample("mismatched: " + expected.describe(plan, keys) + " " + String.join(", ", differences));
    }
  }

  private void sample(String line) {
    synchronized (samples) {
      if (samples.size() < sampleLimit) {
        samples.add(line);
      }
    }
  }

  @Override
  public void finish() {
    inFlight.acquireUninterruptibly(maxInFlight);
    inFlight.release(maxInFlight);
    if (failure != null) {
      throw failure;
    }
    if (missingWriter != null) {
      toCopy.forEach(missingWriter::accept);
      missingWriter.finish();
    }
  }

  /** What was found missing or different; complete once {@link #finish} returned. */
  RangeResult.Differences differences() {
    synchronized (samples) {
      return new RangeResult.Differences(missing.get(), mismatched.get(), List.copyOf(samples));
    }
  }
}
