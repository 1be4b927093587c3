package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.reshaper.plan.MigrationPlan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Validation: looks up each expected target row by its primary key and compares every column.
 * Missing rows can be handed to a writer. One thread calls {@link #accept}.
 */
final class TargetChecker implements RowSink {
  private final CqlSession session;
  private final MigrationPlan plan;
  private final PreparedStatement lookup;
  private final ConsistencyLevel consistency;
  private final int sampleLimit;
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
      int sampleLimit,
      int maxInFlight,
      RowSink missingWriter) {
    this.session = session;
    this.plan = plan;
    this.lookup = session.prepare(plan.target().lookupCql());
    this.consistency = consistency;
    this.sampleLimit = sampleLimit;
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
      if (!Arrays.equals(expected.values[i], got)) {
        var column = plan.target().columns().get(i);
        differences.add(
            column.name()
                + " expected "
                + TargetRow.format(column, expected.values[i])
                + " got "
                + TargetRow.format(column, got));
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
