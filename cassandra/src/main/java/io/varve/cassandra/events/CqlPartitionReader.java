package io.varve.cassandra.events;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.read.Cursor;
import io.varve.core.read.PartitionReader;
import io.varve.core.read.PartitionScan;
import io.varve.core.read.ScanBudget;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Reads one partition of a slice table, newest first, and reassembles events from their item rows.
 * Rows arrive in clustering order (event_time DESC, event_id, event_item_key), so an event's items
 * are consecutive; an event is complete when a row of another event (or the end) follows. Pages of
 * rows are fetched only while more events are wanted, each one asked of and tracked by the read's
 * {@link ScanBudget}, which cancels them when the read stops early.
 */
final class CqlPartitionReader implements PartitionReader {

  private final CqlSession session;
  private final SliceStatements statements;
  private final String keyspace;
  private final String timeSeriesId;
  private final ConsistencyLevel level;
  private final ScanBudget budget;
  private final AsyncLimiter reads;

  /** {@code reads} bounds the fetches in flight of every reader of the store. */
  CqlPartitionReader(
      CqlSession session,
      SliceStatements statements,
      String keyspace,
      String timeSeriesId,
      ConsistencyLevel level,
      ScanBudget budget,
      AsyncLimiter reads) {
    this.budget = budget;
    this.reads = reads;
    this.session = session;
    this.statements = statements;
    this.keyspace = keyspace;
    this.timeSeriesId = timeSeriesId;
    this.level = level;
  }

  @Override
  public CompletionStage<List<Event>> read(
      PartitionScan scan, Cursor cursor, List<EventItem> filters, int maxEvents) {
    Instant from = Instant.ofEpochMilli(scan.bucket().fromMillis());
    Instant to = Instant.ofEpochMilli(scan.bucket().toMillis());
    int pageRows = Math.max(16, Math.min(1000, maxEvents * 2 + 1));
    Assembler assembler = new Assembler(timeSeriesId, cursor, filters, maxEvents, this::fetch);
    return CqlFailures.translated(
        statements
            .of(keyspace, scan.bucket().table())
            .thenCompose(
                p ->
                    fetch(
                        () ->
                            session.executeAsync(
                                p.select()
                                    .bind(
                                        timeSeriesId,
                                        Instant.ofEpochMilli(scan.bucket().timeBucketMillis()),
                                        scan.eventBucket(),
                                        from,
                                        to)
                                    .setConsistencyLevel(level)
                                    .setPageSize(pageRows))))
            .thenCompose(assembler::consume));
  }

  /**
   * Starts a fetch of rows once the store's reads in flight allow it and if the budget still does
   * then, tracked by the budget; refuses it RESOURCE_EXHAUSTED when too many wait already.
   */
  private CompletionStage<AsyncResultSet> fetch(Supplier<CompletionStage<AsyncResultSet>> start) {
    if (reads.waiting() >= CqlEventStore.MAX_READS_WAITING) {
      return CompletableFuture.failedFuture(
          new VarveException(
              VarveException.Kind.RESOURCE_EXHAUSTED,
              "the server is at capacity: "
                  + reads.waiting()
                  + " partition reads wait for Cassandra (at most "
                  + CqlEventStore.MAX_READS_WAITING
                  + "); retry later"));
    }
    return reads.submit(
        () -> {
          if (!budget.mayFetch()) {
            return CompletableFuture.failedFuture(
                new VarveException(
                    VarveException.Kind.UNAVAILABLE, "the read stopped before this fetch"));
          }
          return budget.track(start.get());
        });
  }

  /**
   * The item of a slice table row whose columns from {@code keyColumn} on are event_item_key,
   * event_item_value, value_metadata and {@link SliceStatements#ITEM_WRITETIMES}: the key copied
   * out, the value decompressed if it was. A value that cannot be decoded fails with the identity
   * of its event, so that an operator can find the row.
   */
  static EventItem item(
      Row row, int keyColumn, String timeSeriesId, long eventTime, String eventId) {
    ByteBuffer key = row.get(keyColumn, TypeCodecs.BLOB);
    byte[] keyBytes = new byte[key.remaining()];
    key.duplicate().get(keyBytes);
    String metadata = row.get(keyColumn + 2, TypeCodecs.TEXT);
    long metadataWritetime = metadata == null ? 0 : row.getLong(keyColumn + 4);
    try {
      return new EventItem(
          keyBytes,
          ValueCodec.decode(
              row.get(keyColumn + 1, TypeCodecs.BLOB),
              metadata,
              row.getLong(keyColumn + 3),
              metadataWritetime));
    } catch (ValueCodec.CorruptValueException e) {
      throw new ValueCodec.CorruptValueException(
          "stored value of timeSeriesId="
              + timeSeriesId
              + ", eventTime="
              + Instant.ofEpochMilli(eventTime)
              + ", eventId="
              + eventId
              + ", eventItemKey (base64)="
              + java.util.Base64.getEncoder().encodeToString(keyBytes)
              + " cannot be read: "
              + e.getMessage());
    }
  }

  /** Accumulates rows into events across pages. */
  private static final class Assembler {
    private final Cursor cursor;
    private final List<EventItem> filters;
    private final int maxEvents;
    private final String timeSeriesId;
    private final Function<
            Supplier<CompletionStage<AsyncResultSet>>, CompletionStage<AsyncResultSet>>
        fetch;
    private final List<Event> events = new ArrayList<>();
    private long time;
    private String id;
    private List<EventItem> items;

    Assembler(
        String timeSeriesId,
        Cursor cursor,
        List<EventItem> filters,
        int maxEvents,
        Function<Supplier<CompletionStage<AsyncResultSet>>, CompletionStage<AsyncResultSet>>
            fetch) {
      this.fetch = fetch;
      this.timeSeriesId = timeSeriesId;
      this.cursor = cursor;
      this.filters = filters;
      this.maxEvents = maxEvents;
    }

    CompletionStage<List<Event>> consume(AsyncResultSet page) {
      for (Row row : page.currentPage()) {
        long rowTime = row.get(0, TypeCodecs.TIMESTAMP).toEpochMilli();
        String rowId = row.get(1, TypeCodecs.TEXT);
        if (items == null || rowTime != time || !rowId.equals(id)) {
          finish();
          if (events.size() >= maxEvents) {
            return CompletableFuture.completedFuture(events);
          }
          time = rowTime;
          id = rowId;
          items = new ArrayList<>();
        }
        items.add(item(row, 2, timeSeriesId, time, id));
      }
      if (page.hasMorePages()) {
        return fetch.apply(page::fetchNextPage).thenCompose(this::consume);
      }
      finish();
      return CompletableFuture.completedFuture(events);
    }

    private void finish() {
      if (items == null) {
        return;
      }
      Event event = new Event(timeSeriesId, time, id, items);
      items = null;
      if ((cursor == null || cursor.precedes(event))
          && matches(event)
          && events.size() < maxEvents) {
        events.add(event);
      }
    }

    private boolean matches(Event event) {
      for (EventItem filter : filters) {
        boolean found = false;
        for (EventItem item : event.items()) {
          if (Arrays.equals(item.key(), filter.key())
              && Arrays.equals(item.value(), filter.value())) {
            found = true;
            break;
          }
        }
        if (!found) {
          return false;
        }
      }
      return true;
    }
  }
}
