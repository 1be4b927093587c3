package io.varve.cassandra.events;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.AsyncResultSet;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.oss.driver.api.core.cql.SimpleStatement;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.format.SliceTable;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.Function;

/**
 * A full scan of one slice table, reassembling events from their item rows (an event's rows are
 * consecutive: same partition, same clustering prefix) and keeping those in the time range. Pages
 * are fetched only after the sink took the previous events.
 */
final class CqlTableScan {

  static final int MAX_PAGE_ROWS = 1000;

  private final Function<List<Event>, CompletionStage<Void>> sink;
  private final long fromMillis;
  private final long toMillis;
  private final int batchSize;
  private final CqlSession session;
  private final RowSizes rowSizes;
  private final String keyspace;
  private final String table;
  private SimpleStatement select;
  private int pageRows;
  private long largestRow;
  private List<Event> batch = new ArrayList<>();
  private long handed;
  private String series;
  private long time;
  private String id;
  private List<EventItem> items;

  private CqlTableScan(
      CqlSession session,
      RowSizes rowSizes,
      String keyspace,
      String table,
      long fromMillis,
      long toMillis,
      int batchSize,
      Function<List<Event>, CompletionStage<Void>> sink) {
    this.session = session;
    this.rowSizes = rowSizes;
    this.keyspace = keyspace;
    this.table = table;
    this.largestRow = rowSizes.largest(keyspace, table);
    this.fromMillis = fromMillis;
    this.toMillis = toMillis;
    this.batchSize = batchSize;
    this.sink = sink;
  }

  /**
   * Scans the table; each page asks for as many rows as make {@link RowSizes#FETCH_BYTES} at the
   * largest row of the table seen so far (at most {@value #MAX_PAGE_ROWS}), as partition reads do.
   */
  static CompletionStage<Long> run(
      CqlSession session,
      RowSizes rowSizes,
      String keyspace,
      String table,
      long fromMillis,
      long toMillis,
      ConsistencyLevel level,
      int batchSize,
      Function<List<Event>, CompletionStage<Void>> sink) {
    String name =
        CqlIdentifier.fromInternal(keyspace).asCql(true)
            + '.'
            + CqlIdentifier.fromInternal(table).asCql(true);
    SimpleStatement select =
        SimpleStatement.newInstance(
                "SELECT time_series_id, event_time, event_id, "
                    + SliceTable.ITEM_COLUMNS
                    + " FROM "
                    + name)
            .setConsistencyLevel(level);
    CqlTableScan scan =
        new CqlTableScan(session, rowSizes, keyspace, table, fromMillis, toMillis, batchSize, sink);
    scan.pageRows = RowSizes.rows(scan.largestRow, MAX_PAGE_ROWS);
    scan.select = select.setPageSize(scan.pageRows);
    return session.executeAsync(scan.select).thenCompose(scan::consume);
  }

  private CompletionStage<Long> consume(AsyncResultSet page) {
    long pageLargest = 0;
    for (Row row : page.currentPage()) {
      String rowSeries = row.get(0, TypeCodecs.TEXT);
      long rowTime = row.get(1, TypeCodecs.TIMESTAMP).toEpochMilli();
      String rowId = row.get(2, TypeCodecs.TEXT);
      if (items == null || rowTime != time || !rowId.equals(id) || !rowSeries.equals(series)) {
        finish();
        series = rowSeries;
        time = rowTime;
        id = rowId;
        items = new ArrayList<>();
      }
      EventItem item = CqlPartitionReader.item(row, 3, rowSeries, rowTime, rowId);
      pageLargest = Math.max(pageLargest, CqlPartitionReader.storedBytes(row, 4, item));
      items.add(item);
    }
    rowSizes.saw(keyspace, table, pageLargest);
    largestRow = rowSizes.largest(keyspace, table);
    if (!page.hasMorePages()) {
      finish();
      return flush().thenApply(v -> handed);
    }
    CompletionStage<Void> handedOver =
        batch.size() >= batchSize ? flush() : CompletableFuture.completedFuture(null);
    int rows = RowSizes.rows(largestRow, MAX_PAGE_ROWS);
    if (rows == pageRows) {
      return handedOver.thenCompose(v -> page.fetchNextPage()).thenCompose(this::consume);
    }
    pageRows = rows;
    select = select.setPagingState(page.getExecutionInfo().getPagingState()).setPageSize(rows);
    SimpleStatement next = select;
    return handedOver.thenCompose(v -> session.executeAsync(next)).thenCompose(this::consume);
  }

  private void finish() {
    if (items != null && time >= fromMillis && time < toMillis) {
      batch.add(new Event(series, time, id, items));
    }
    items = null;
  }

  private CompletionStage<Void> flush() {
    if (batch.isEmpty()) {
      return CompletableFuture.completedFuture(null);
    }
    List<Event> out = batch;
    batch = new ArrayList<>();
    handed += out.size();
    return sink.apply(out);
  }
}
