package io.varve.reshaper.copy;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Statement;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import io.varve.core.limit.RateLimiter;
import io.varve.packing.Batch;
import io.varve.packing.PackingLimits;
import io.varve.packing.Placement;
import io.varve.packing.ReplicaPacker;
import io.varve.reshaper.badrows.BadRow;
import io.varve.reshaper.badrows.BadRows;
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.MigrationPlan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes target rows with asynchronous upserts: consecutive rows go in one unlogged batch as long
 * as their partitions (at most {@code writer.batchPartitions} of them) have the same replicas and
 * the batch stays within {@code writer.batchBytes} as Cassandra counts them ({@link
 * TargetRow#batchBytes}), so the coordinator the driver picks for the batch is a replica of every
 * row in it and the batch costs the cluster what its single-partition parts would, in one request
 * (the packing is {@link ReplicaPacker}'s, in order, answered from the driver's token map). At most
 * {@code writer.maxInFlight} requests are outstanding, failed requests are retried, and rows that
 * still fail are kept as bad rows, in the CQL text that writes them. Rows are upserts with no read
 * before write, so writing a row twice leaves the same result. Without the driver's token map each
 * batch holds one partition. One thread calls {@link #accept}; completions run on driver threads.
 */
final class TargetWriter implements RowWriter {
  private final CqlSession session;
  private final MigrationPlan plan;
  private final PreparedStatement insert;
  private final PreparedStatement insertWithTimes;
  private final ConsistencyLevel consistency;
  private final JobConfig.Writer limits;
  private final int retries;
  private final Upserts upserts;
  private final RateLimiter rows;
  private final RateLimiter bytes;
  private final BadRows badRows;
  private final Semaphore inFlight;
  private final ReplicaPacker<TargetRow> packer;
  private long written;

  TargetWriter(
      CqlSession session,
      MigrationPlan plan,
      JobConfig config,
      double rowsPerSecond,
      double bytesPerSecond,
      BadRows badRows) {
    this.session = session;
    this.plan = plan;
    this.insert = session.prepare(plan.target().insertCql());
    this.insertWithTimes = session.prepare(plan.target().insertWithTimestampCql());
    this.consistency = DefaultConsistencyLevel.valueOf(config.target().consistencyLevel());
    this.limits = config.writer();
    this.retries = config.failures().retries();
    this.upserts =
        new Upserts(
            plan, config.target().writeTimestampMicros(), (int) config.target().writeTtlSeconds());
    this.rows = new RateLimiter(rowsPerSecond);
    this.bytes = new RateLimiter(bytesPerSecond);
    this.badRows = badRows;
    this.inFlight = new Semaphore(limits.maxInFlight());
    Optional<TokenMap> tokens =
        limits.batchPartitions() > 1 ? session.getMetadata().getTokenMap() : Optional.empty();
    CqlIdentifier keyspace = CqlIdentifier.fromInternal(config.target().keyspace());
    int partitionKey = plan.target().partitionKeyCount();
    int primaryKey = plan.target().primaryKeyCount();
    this.packer =
        new ReplicaPacker<>(
            new PackingLimits(limits.batchRows(), limits.batchPartitions(), limits.batchBytes()),
            Placement.of(
                row -> row.batchBytes(partitionKey, primaryKey),
                (previous, next) -> previous.samePrefix(next, partitionKey),
                row -> tokens.map(t -> replicas(t, keyspace, row, partitionKey)).orElse(null)),
            this::send);
  }

  @Override
  public void accept(TargetRow row) {
    packer.add(row);
    written++;
  }

  @Override
  public void finish() {
    packer.flush();
    inFlight.acquireUninterruptibly(limits.maxInFlight());
    inFlight.release(limits.maxInFlight());
  }

  @Override
  public long written() {
    return written;
  }

  /** True: batches are in flight after {@link #accept} returns. */
  @Override
  public boolean writesInFlight() {
    return true;
  }

  /** Closes the session it was given. */
  @Override
  public void close() {
    session.close();
  }

  private void send(Batch<TargetRow> batch) {
    List<Pending> group = new ArrayList<>(batch.items().size());
    batch.items().forEach(row -> group.add(new Pending(row, upserts.of(row))));
    rows.acquire(group.size());
    long valueBytes = 0;
    for (TargetRow row : batch.items()) {
      valueBytes += row.sizeBytes();
    }
    bytes.acquire(valueBytes);
    inFlight.acquireUninterruptibly();
    send(group, retries, inFlight::release);
  }

  /** A row on its way, with the upserts that write it (fixed once, for every attempt). */
  private record Pending(TargetRow row, List<Upserts.Upsert> upserts) {}

  private void send(List<Pending> group, int retries, Runnable done) {
    List<BoundStatement> statements = new ArrayList<>();
    for (Pending p : group) {
      p.upserts().forEach(u -> statements.add(bind(u, p.row())));
    }
    Statement<?> statement =
        statements.size() == 1
            ? statements.get(0)
            : BatchStatement.newInstance(BatchType.UNLOGGED).addAll(statements);
    Retries.execute(session, statement.setConsistencyLevel(consistency), retries)
        .thenAccept(
            error -> {
              if (error == null) {
                done.run();
              } else if (group.size() > 1) {
                // One bad row must not fail its neighbours: each is tried alone, once more.
                AtomicInteger left = new AtomicInteger(group.size());
                for (Pending p : group) {
                  send(
                      List.of(p),
                      0,
                      () -> {
                        if (left.decrementAndGet() == 0) {
                          done.run();
                        }
                      });
                }
              } else {
                Pending p = group.get(0);
                badRows.add(BadRow.of(upserts.cql(p.row(), p.upserts()), error));
                done.run();
              }
            });
  }

  /** Binds key columns and the upsert's others; a missing value stays unset (no tombstone). */
  private BoundStatement bind(Upserts.Upsert upsert, TargetRow row) {
    BoundStatementBuilder b = (upsert.timed() ? insertWithTimes : insert).boundStatementBuilder();
    int n = row.values.length;
    for (int i = 0; i < n; i++) {
      if (upsert.binds(i, plan.target().primaryKeyCount()) && row.values[i] != null) {
        b.setBytesUnsafe(i, ByteBuffer.wrap(row.values[i]));
      }
    }
    if (upsert.timed()) {
      b.setLong(n, upsert.timestamp()).setInt(n + 1, upsert.ttl());
    }
    return b.build();
  }

  /** Null for a row without a complete partition key (it fails alone, as a bad row). */
  private static Set<Node> replicas(
      TokenMap tokens, CqlIdentifier keyspace, TargetRow row, int partitionKeyCount) {
    ByteBuffer[] key = new ByteBuffer[partitionKeyCount];
    for (int i = 0; i < key.length; i++) {
      if (row.values[i] == null) {
        return null;
      }
      key[i] = ByteBuffer.wrap(row.values[i]);
    }
    return tokens.getReplicas(keyspace, tokens.newToken(key));
  }
}
