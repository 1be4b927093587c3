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

  private final Function<List<Event>, CompletionStage<Void>> sink;
  private final long fromMillis;
  private final long toMillis;
  private final int batchSize;
  private List<Event> batch = new ArrayList<>();
  private long handed;
  private String series;
  private long time;
  private String id;
  private List<EventItem> items;

  private CqlTableScan(
      long fromMillis,
      long toMillis,
      int batchSize,
      Function<List<Event>, CompletionStage<Void>> sink) {
    this.fromMillis = fromMillis;
    this.toMillis = toMillis;
    this.batchSize = batchSize;
    this.sink = sink;
  }

  static CompletionStage<Long> run(
      CqlSession session,
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
                "SELECT time_series_id, event_time, event_id, event_item_key,"
                    + " event_item_value, value_metadata, "
                    + SliceStatements.ITEM_WRITETIMES
                    + " FROM "
                    + name)
            .setConsistencyLevel(level)
            .setPageSize(1000);
    CqlTableScan scan = new CqlTableScan(fromMillis, toMillis, batchSize, sink);
    return session.executeAsync(select).thenCompose(scan::consume);
  }

  private CompletionStage<Long> consume(AsyncResultSet page) {
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
      items.add(CqlPartitionReader.item(row, 3, rowSeries, rowTime, rowId));
    }
    if (!page.hasMorePages()) {
      finish();
      return flush().thenApply(v -> handed);
    }
    CompletionStage<Void> handedOver =
        batch.size() >= batchSize ? flush() : CompletableFuture.completedFuture(null);
    return handedOver.thenCompose(v -> page.fetchNextPage()).thenCompose(this::consume);
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
