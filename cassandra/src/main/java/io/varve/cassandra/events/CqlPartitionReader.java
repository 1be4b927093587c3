package io.varve.cassandra.events;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.limit.AsyncLimiter;
import io.varve.core.read.Cursor;
import io.varve.core.read.PartitionRead;
import io.varve.core.read.PartitionReader;
import io.varve.core.read.PartitionScan;
import io.varve.core.read.ReadBytes;
import io.varve.core.read.ScanBudget;
import io.varve.format.ValueCodec;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Supplier;

/**
 * Reads one partition of a slice table, newest first, and reassembles events from their item rows.
 * Rows arrive in clustering order (event_time DESC, event_id, event_item_key), so an event's items
 * are consecutive; an event is complete when a row of another event (or the end) follows. Pages of
 * rows are fetched only while more events are wanted, each one asked of and tracked by the read's
 * {@link ScanBudget}, which cancels them when the read stops early.
 *
 * <p>Each fetch asks for as many rows as make about {@link RowSizes#FETCH_BYTES} at the largest row
 * of the table seen lately (or in this read), and counts as that many bytes in the store's bound of
 * reads in flight; the events kept are held in the read's {@link ReadBytes}, and once it is full
 * the read stops before its next fetch, cut, with at least one event.
 */
final class CqlPartitionReader implements PartitionReader {

  private final CqlSession session;
  private final SliceStatements statements;
  private final String keyspace;
  private final String timeSeriesId;
  private final ConsistencyLevel level;
  private final ScanBudget budget;
  private final ReadBytes bytes;
  private final AsyncLimiter reads;
  private final RowSizes rowSizes;

  /**
   * {@code reads} bounds the fetches in flight of every reader of the store, in number and bytes.
   */
  CqlPartitionReader(
      CqlSession session,
      SliceStatements statements,
      String keyspace,
      String timeSeriesId,
      ConsistencyLevel level,
      ScanBudget budget,
      ReadBytes bytes,
      AsyncLimiter reads,
      RowSizes rowSizes) {
    this.budget = budget;
    this.bytes = bytes;
    this.reads = reads;
    this.rowSizes = rowSizes;
    this.session = session;
    this.statements = statements;
    this.keyspace = keyspace;
    this.timeSeriesId = timeSeriesId;
    this.level = level;
  }

  @Override
  public CompletionStage<PartitionRead> read(
      PartitionScan scan, Cursor cursor, List<EventItem> filters, int maxEvents) {
    Instant from = Instant.ofEpochMilli(scan.bucket().fromMillis());
    Instant to = Instant.ofEpochMilli(scan.bucket().toMillis());
    String table = scan.bucket().table();
    Assembler assembler = new Assembler(table, cursor, filters, maxEvents);
    return CqlFailures.translated(
        statements
            .of(keyspace, table)
            .thenCompose(
                p -> {
                  BoundStatement select =
                      p.select()
                          .bind(
                              timeSeriesId,
                              Instant.ofEpochMilli(scan.bucket().timeBucketMillis()),
                              scan.eventBucket(),
                              from,
                              to)
                          .setConsistencyLevel(level);
                  return assembler.fetchFirst(select);
                }));
  }

  /**
   * Starts a fetch of rows expected to hold {@code expectedBytes} once the store's reads in flight
   * allow it and if the budget still does then, tracked by the budget; refuses it
   * RESOURCE_EXHAUSTED when too many wait already.
   */
  private CompletionStage<AsyncResultSet> fetch(
      long expectedBytes, Supplier<CompletionStage<AsyncResultSet>> start) {
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
        expectedBytes,
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
   * event_item_value, value_metadata and {@link io.varve.format.SliceTable#ITEM_WRITETIMES}: the
   * key copied out, the value decompressed if it was. A value that cannot be decoded fails with the
   * identity of its event, so that an operator can find the row.
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

  /** Accumulates rows into events across pages, each page sized by the largest row seen so far. */
  private final class Assembler {
    private final String table;
    private final Cursor cursor;
    private final List<EventItem> filters;
    private final int maxEvents;
    private final int mostRows;
    private final List<Event> events = new ArrayList<>();
    private BoundStatement select;
    private long largestRow;
    private int pageRows;
    private long time;
    private String id;
    private List<EventItem> items;
    private long itemBytes;

    Assembler(String table, Cursor cursor, List<EventItem> filters, int maxEvents) {
      this.table = table;
      this.cursor = cursor;
      this.filters = filters;
      this.maxEvents = maxEvents;
      this.mostRows = Math.max(16, Math.min(1000, maxEvents * 2 + 1));
      this.largestRow = rowSizes.largest(keyspace, table);
    }

    CompletionStage<PartitionRead> fetchFirst(BoundStatement statement) {
      pageRows = RowSizes.rows(largestRow, mostRows);
      select = statement.setPageSize(pageRows);
      BoundStatement first = select;
      return fetch(expectedBytes(), () -> session.executeAsync(first)).thenCompose(this::consume);
    }

    private long expectedBytes() {
      return pageRows * largestRow;
    }

    CompletionStage<PartitionRead> consume(AsyncResultSet page) {
      long pageLargest = 0;
      for (Row row : page.currentPage()) {
        long rowTime = row.get(0, TypeCodecs.TIMESTAMP).toEpochMilli();
        String rowId = row.get(1, TypeCodecs.TEXT);
        if (items == null || rowTime != time || !rowId.equals(id)) {
          finish();
          if (events.size() >= maxEvents) {
            rowSizes.saw(keyspace, table, pageLargest);
            return CompletableFuture.completedFuture(PartitionRead.whole(events));
          }
          time = rowTime;
          id = rowId;
          items = new ArrayList<>();
          itemBytes = 0;
        }
        EventItem item = item(row, 2, timeSeriesId, time, id);
        itemBytes += item.key().length + item.value().length;
        pageLargest = Math.max(pageLargest, storedBytes(row, 3, item));
        items.add(item);
      }
      rowSizes.saw(keyspace, table, pageLargest);
      if (!page.hasMorePages()) {
        finish();
        return CompletableFuture.completedFuture(PartitionRead.whole(events));
      }
      if (bytes.full() && !events.isEmpty()) {
        // the event in progress may go on in the next page: the next page of the read starts
        // after the last event kept
        return CompletableFuture.completedFuture(new PartitionRead(events, true));
      }
      // the table's largest row seen lately, this page's included: a table first assumed to hold
      // rows of a MiB is read at the size of its rows from the second fetch on
      largestRow = rowSizes.largest(keyspace, table);
      int rows = RowSizes.rows(largestRow, mostRows);
      if (rows == pageRows) {
        return fetch(expectedBytes(), page::fetchNextPage).thenCompose(this::consume);
      }
      // another page size needs the statement sent again from where this page ended
      pageRows = rows;
      BoundStatement next =
          select.setPagingState(page.getExecutionInfo().getPagingState()).setPageSize(rows);
      return fetch(expectedBytes(), () -> session.executeAsync(next)).thenCompose(this::consume);
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
        bytes.keep(itemBytes);
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

  /**
   * The bytes of the row of {@code item}, whose value is column {@code valueColumn}: its key and
   * its value as stored (a compressed value at its compressed size).
   */
  static long storedBytes(Row row, int valueColumn, EventItem item) {
    ByteBuffer value = row.getBytesUnsafe(valueColumn);
    return item.key().length + (value == null ? 0 : value.remaining());
  }
}
