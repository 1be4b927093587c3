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
import io.varve.reshaper.config.JobConfig;
import io.varve.reshaper.plan.MigrationPlan;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Writes target rows with asynchronous upserts: consecutive rows go in one unlogged batch as
 * long as their partitions (at most {@code writer.batchPartitions} of them) have the same
 * replicas, so the coordinator the driver picks for the batch is a replica of every row in it
 * and the batch costs the cluster what its single-partition parts would, in one request. At
 * most {@code writer.maxInFlight} requests are outstanding, failed requests are retried, and
 * rows that still fail are counted as bad rows. Rows are upserts with no read before write, so
 * writing a row twice leaves the same result. Without the driver's token map each batch holds
 * one partition. One thread calls {@link #accept}; completions run on driver threads.
 */
final class TargetWriter implements RowSink {
  private final CqlSession session;
  private final MigrationPlan plan;
  private final PreparedStatement insert;
  private final PreparedStatement insertWithTimes;
  private final ConsistencyLevel consistency;
  private final JobConfig.Writer limits;
  private final int retries;
  private final long fixedTimestamp;
  private final int fixedTtl;
  private final RateLimiter rows;
  private final RateLimiter bytes;
  private final BadRows badRows;
  private final Semaphore inFlight;
  private final Optional<TokenMap> tokens;
  private final CqlIdentifier keyspace;
  private final List<TargetRow> batch = new ArrayList<>();
  private int batchBytes;
  private int batchPartitions;
  /** The replicas of the batch's first partition, looked up when a second one wants in. */
  private Set<Node> batchReplicas;
  private long written;

  TargetWriter(CqlSession session, MigrationPlan plan, JobConfig config, double rowsPerSecond,
      double bytesPerSecond, BadRows badRows) {
    this.session = session;
    this.plan = plan;
    this.insert = session.prepare(plan.target().insertCql());
    this.insertWithTimes = session.prepare(plan.target().insertWithTimestampCql());
    this.consistency = DefaultConsistencyLevel.valueOf(config.target().consistencyLevel());
    this.limits = config.writer();
    this.retries = config.failures().retries();
    this.fixedTimestamp = config.target().writeTimestampMicros();
    this.fixedTtl = (int) config.target().writeTtlSeconds();
    this.rows = new RateLimiter(rowsPerSecond);
    this.bytes = new RateLimiter(bytesPerSecond);
    this.badRows = badRows;
    this.inFlight = new Semaphore(limits.maxInFlight());
    this.tokens = limits.batchPartitions() > 1 ? session.getMetadata().getTokenMap()
        : Optional.empty();
    this.keyspace = CqlIdentifier.fromInternal(config.target().keyspace());
  }

  @Override
  public void accept(TargetRow row) {
    int size = row.sizeBytes();
    boolean newPartition = batch.isEmpty()
        || !batch.get(batch.size() - 1).samePrefix(row, plan.target().partitionKeyCount());
    if (!batch.isEmpty() && (batch.size() >= limits.batchRows()
        || batchBytes + size > limits.batchBytes()
        || newPartition && !joins(row))) {
      flush();
      newPartition = true;
    }
    if (newPartition) {
      batchPartitions++;
    }
    batch.add(row);
    batchBytes += size;
    written++;
  }

  /** Whether the first row of another partition may join the current batch. */
  private boolean joins(TargetRow row) {
    if (tokens.isEmpty() || batchPartitions >= limits.batchPartitions()) {
      return false;
    }
    if (batchReplicas == null) {
      batchReplicas = replicas(batch.get(0));
    }
    Set<Node> replicas = replicas(row);
    return replicas != null && replicas.equals(batchReplicas);
  }

  /** Null for a row without a complete partition key (it fails alone, as a bad row). */
  private Set<Node> replicas(TargetRow row) {
    ByteBuffer[] key = new ByteBuffer[plan.target().partitionKeyCount()];
    for (int i = 0; i < key.length; i++) {
      if (row.values[i] == null) {
        return null;
      }
      key[i] = ByteBuffer.wrap(row.values[i]);
    }
    TokenMap map = tokens.get();
    return map.getReplicas(keyspace, map.newToken(key));
  }

  @Override
  public void finish() {
    flush();
    inFlight.acquireUninterruptibly(limits.maxInFlight());
    inFlight.release(limits.maxInFlight());
  }

  long written() {
    return written;
  }

  private void flush() {
    if (batch.isEmpty()) {
      return;
    }
    List<TargetRow> rowsToSend = List.copyOf(batch);
    rows.acquire(rowsToSend.size());
    bytes.acquire(batchBytes);
    batch.clear();
    batchBytes = 0;
    batchPartitions = 0;
    batchReplicas = null;
    inFlight.acquireUninterruptibly();
    send(rowsToSend, 0);
  }

  private void send(List<TargetRow> group, int attempt) {
    send(group, attempt, inFlight::release);
  }

  private void send(List<TargetRow> group, int attempt, Runnable done) {
    List<BoundStatement> statements = new ArrayList<>();
    for (TargetRow row : group) {
      statements.addAll(statementsOf(row));
    }
    Statement<?> statement = statements.size() == 1 ? statements.get(0)
        : BatchStatement.newInstance(BatchType.UNLOGGED).addAll(statements);
    session.executeAsync(statement.setConsistencyLevel(consistency).setIdempotent(true))
        .whenComplete((result, error) -> {
          if (error == null) {
            done.run();
          } else if (attempt < retries) {
            CompletableFuture.runAsync(() -> send(group, attempt + 1, done),
                CompletableFuture.delayedExecutor(50L << attempt, TimeUnit.MILLISECONDS));
          } else if (group.size() > 1) {
            // One bad row must not fail its neighbours: each is tried alone.
            AtomicInteger left = new AtomicInteger(group.size());
            for (TargetRow row : group) {
              send(List.of(row), attempt, () -> {
                if (left.decrementAndGet() == 0) {
                  done.run();
                }
              });
            }
          } else {
            badRows.add(group.get(0).describe(plan, plan.target().columns().size()) + " : "
                + error.getClass().getSimpleName() + ": " + error.getMessage());
            done.run();
          }
        });
  }

  /** One upsert per distinct (writetime, TTL) of the row's cells when they are kept. */
  private List<BoundStatement> statementsOf(TargetRow row) {
    int n = row.values.length;
    if (row.writetimes == null) {
      if (fixedTimestamp == 0 && fixedTtl == 0) {
        return List.of(bind(insert, row, null).build());
      }
      return List.of(bind(insertWithTimes, row, null)
          .setLong(n, fixedTimestamp == 0 ? System.currentTimeMillis() * 1000 : fixedTimestamp)
          .setInt(n + 1, fixedTtl).build());
    }
    Map<List<Long>, List<Integer>> groups = new LinkedHashMap<>();
    for (int i = plan.target().primaryKeyCount(); i < n; i++) {
      if (row.values[i] != null && row.writetimes[i] != TargetRow.NO_WRITETIME) {
        groups.computeIfAbsent(List.of(row.writetimes[i], (long) row.ttls[i]), k -> new ArrayList<>()).add(i);
      }
    }
    List<BoundStatement> out = new ArrayList<>();
    boolean[] covered = new boolean[n];
    for (List<Integer> columns : groups.values()) {
      boolean[] include = new boolean[n];
      for (int i : columns) {
        include[i] = true;
        covered[i] = true;
      }
      int first = columns.get(0);
      out.add(bind(insertWithTimes, row, include).setLong(n, row.writetimes[first])
          .setInt(n + 1, row.ttls[first]).build());
    }
    boolean rest = out.isEmpty();
    for (int i = plan.target().primaryKeyCount(); i < n; i++) {
      rest |= row.values[i] != null && !covered[i];
    }
    if (rest) {
      boolean[] include = new boolean[n];
      for (int i = 0; i < n; i++) {
        include[i] = !covered[i];
      }
      out.add(bind(insert, row, include).build());
    }
    return out;
  }

  /** Binds key columns and the included ones; a missing value stays unset (no tombstone). */
  private BoundStatementBuilder bind(PreparedStatement ps, TargetRow row, boolean[] include) {
    BoundStatementBuilder b = ps.boundStatementBuilder();
    for (int i = 0; i < row.values.length; i++) {
      boolean wanted = i < plan.target().primaryKeyCount() || include == null || include[i];
      if (wanted && row.values[i] != null) {
        b.setBytesUnsafe(i, ByteBuffer.wrap(row.values[i]));
      }
    }
    return b;
  }
}
