package io.varve.perf.ts;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import io.varve.api.timeseries.v1.Event;
import io.varve.api.timeseries.v1.EventItem;
import io.varve.core.limit.AsyncLimiter;
import io.varve.core.partitioning.EventBuckets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * The baseline: the same rows written and read by a plain async CQL client with prepared
 * statements, in a table of the slice-table schema. Rows are placed in the same partitions as Varve
 * places them (hour buckets, event buckets by identity) and written as one unlogged batch per
 * partition, with the same in-flight bound as the server.
 */
public final class RawCql {

  private final CqlSession session;
  private final PreparedStatement insert;
  private final PreparedStatement select;
  private final ConsistencyLevel level;
  private final AsyncLimiter limiter;
  private final long bucketMillis;
  private final int eventBuckets;

  /**
   * A writer and reader of {@code table} (of the slice-table schema) at {@code level}, at most
   * {@code maxInFlight} statements in flight, partitions of {@code bucketMillis} and {@code
   * eventBuckets} as a namespace's.
   */
  public RawCql(
      CqlSession session,
      String table,
      ConsistencyLevel level,
      int maxInFlight,
      long bucketMillis,
      int eventBuckets) {
    this.session = session;
    this.insert =
        session.prepare(
            "INSERT INTO "
                + table
                + " (time_series_id, time_bucket, event_bucket, event_time,"
                + " event_id, event_item_key, event_item_value) VALUES (?, ?, ?, ?, ?, ?, ?)");
    this.select =
        session.prepare(
            "SELECT event_time, event_id, event_item_key, event_item_value, value_metadata FROM "
                + table
                + " WHERE time_series_id = ? AND time_bucket = ? AND event_bucket = ? AND event_time >= ?"
                + " AND event_time < ?");
    this.level = level;
    this.limiter = new AsyncLimiter("raw_cql", maxInFlight);
    this.bucketMillis = bucketMillis;
    this.eventBuckets = eventBuckets;
  }

  /** Writes a batch of events; completes when every partition batch is acknowledged. */
  public CompletionStage<Void> write(List<Event> events) {
    Map<String, BatchStatementBuilder> partitions = new LinkedHashMap<>();
    for (Event e : events) {
      long t = e.getEventTime().getSeconds() * 1000 + e.getEventTime().getNanos() / 1_000_000;
      long bucket = Math.floorDiv(t, bucketMillis) * bucketMillis;
      int eventBucket = EventBuckets.of(e.getTimeSeriesId(), t, e.getEventId(), eventBuckets);
      BatchStatementBuilder batch =
          partitions.computeIfAbsent(
              e.getTimeSeriesId() + '|' + bucket + '|' + eventBucket,
              k -> BatchStatement.builder(BatchType.UNLOGGED));
      for (EventItem item : e.getEventItemsList()) {
        batch.addStatement(
            insert.bind(
                e.getTimeSeriesId(),
                Instant.ofEpochMilli(bucket),
                eventBucket,
                Instant.ofEpochMilli(t),
                e.getEventId(),
                item.getEventItemKey().asReadOnlyByteBuffer(),
                item.getEventItemValue().asReadOnlyByteBuffer()));
      }
    }
    List<CompletableFuture<AsyncResultSet>> writes = new ArrayList<>();
    for (BatchStatementBuilder batch : partitions.values()) {
      BatchStatement statement = batch.setConsistencyLevel(level).setIdempotence(true).build();
      writes.add(limiter.submit(() -> session.executeAsync(statement)).toCompletableFuture());
    }
    return CompletableFuture.allOf(writes.toArray(CompletableFuture[]::new));
  }

  /**
   * The rows of one partition in [from, to), its first page (up to 5,000 rows): event_time,
   * event_id, event_item_key, event_item_value, value_metadata.
   */
  CompletionStage<Iterable<Row>> readAsync(
      String series, long bucket, int eventBucket, long from, long to) {
    return session
        .executeAsync(select(series, bucket, eventBucket, from, to))
        .thenApply(AsyncResultSet::currentPage);
  }

  private BoundStatement select(String series, long bucket, int eventBucket, long from, long to) {
    return select
        .bind(
            series,
            Instant.ofEpochMilli(bucket),
            eventBucket,
            Instant.ofEpochMilli(from),
            Instant.ofEpochMilli(to))
        .setConsistencyLevel(level)
        .setPageSize(5000);
  }

  /** Reads one partition's rows in [from, to) and returns the number of rows. */
  int read(String series, long bucket, int eventBucket, long from, long to) {
    int rows = 0;
    for (Row row : session.execute(select(series, bucket, eventBucket, from, to))) {
      row.getByteBuffer(3);
      rows++;
    }
    return rows;
  }
}
