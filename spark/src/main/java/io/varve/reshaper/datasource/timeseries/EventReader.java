package io.varve.reshaper.datasource.timeseries;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.format.SliceTable;
import io.varve.format.ValueCodec;
import io.varve.reshaper.copy.RangeScan;
import io.varve.reshaper.datasource.ReadMetrics;
import io.varve.reshaper.datasource.TableGone;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.metric.CustomTaskMetric;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Runs a part's reads in a Spark task, in order, the next {@value #LOOKAHEAD} started ahead: each
 * read a paged query (pages of at most {@code fetchSize} rows, kept near 4 MiB), each row an event
 * item with its value decoded by the storage format's {@link ValueCodec}, as the server decodes it.
 * A value that cannot be decoded fails the task with the identity of its row.
 */
final class EventReader implements PartitionReader<InternalRow> {

  /**
   * Reads started ahead of the one consumed, so that a part of many small reads (a token range of
   * every slice) waits for one first page at a time, not for each in turn: each holds at most two
   * pages of about 4 MiB.
   */
  static final int LOOKAHEAD = 4;

  /** The factory the scan hands to Spark: what every task needs, serializable. */
  record Factory(
      CassandraConnector connector,
      String namespace,
      String keyspace,
      String consistency,
      int fetchSize)
      implements PartitionReaderFactory {
    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      return new EventReader(this, (EventReads.Part) partition);
    }
  }

  private final Factory factory;
  private final Iterator<EventReads.Read> reads;
  private final CqlSession session;
  private final Map<String, PreparedStatement> prepared = new HashMap<>();
  private final java.util.ArrayDeque<RangeScan> started = new java.util.ArrayDeque<>();
  private Iterator<Row> rows;
  private InternalRow current;
  private long rowsFetched;
  private long readsRun;

  private EventReader(Factory factory, EventReads.Part part) {
    this.factory = factory;
    this.reads = part.reads();
    this.session = factory.connector().openSession();
  }

  @Override
  public boolean next() {
    try {
      return advance();
    } catch (RuntimeException e) {
      throw TableGone.translate(e, factory.namespace());
    }
  }

  private boolean advance() {
    while (rows == null || !rows.hasNext()) {
      while (started.size() < LOOKAHEAD && reads.hasNext()) {
        started.add(
            new RangeScan(session, bind(reads.next()), factory.fetchSize(), factory.consistency()));
      }
      if (started.isEmpty()) {
        return false;
      }
      rows = started.poll();
      readsRun++;
    }
    current = convert(rows.next());
    rowsFetched++;
    return true;
  }

  @Override
  public InternalRow get() {
    return current;
  }

  @Override
  public CustomTaskMetric[] currentMetricsValues() {
    return new CustomTaskMetric[] {
      ReadMetrics.task(ReadMetrics.ROWS_FETCHED, rowsFetched),
      ReadMetrics.task(ReadMetrics.READS, readsRun)
    };
  }

  @Override
  public void close() {
    session.close();
  }

  private BoundStatement bind(EventReads.Read read) {
    if (read instanceof EventReads.KeyRead k) {
      return statement(k.table(), "key")
          .bind(
              k.series(),
              Instant.ofEpochMilli(k.timeBucket()),
              k.eventBucket(),
              Instant.ofEpochMilli(k.fromMillis()),
              Instant.ofEpochMilli(k.toMillis()));
    }
    EventReads.RangeRead r = (EventReads.RangeRead) read;
    if (r.whole()) {
      return statement(r.table(), "range").bind(r.start(), r.end());
    }
    return statement(r.table(), "range-part")
        .bind(
            r.start(),
            r.end(),
            Instant.ofEpochMilli(r.fromMillis()),
            Instant.ofEpochMilli(r.toMillis()));
  }

  private PreparedStatement statement(String table, String kind) {
    return prepared.computeIfAbsent(table + "/" + kind, k -> session.prepare(cql(table, kind)));
  }

  private String cql(String table, String kind) {
    String name =
        CqlIdentifier.fromInternal(factory.keyspace()).asCql(true)
            + '.'
            + CqlIdentifier.fromInternal(table).asCql(true);
    String select = "SELECT " + EventColumns.SELECTED + " FROM " + name + " WHERE ";
    if (kind.equals("key")) {
      return select
          + String.join(" = ? AND ", SliceTable.PARTITION_KEY)
          + " = ? AND "
          + SliceTable.EVENT_TIME
          + " >= ? AND "
          + SliceTable.EVENT_TIME
          + " < ?";
    }
    String token = "token(" + String.join(", ", SliceTable.PARTITION_KEY) + ")";
    String range = select + token + " > ? AND " + token + " <= ?";
    return kind.equals("range")
        ? range
        : range
            + " AND "
            + SliceTable.EVENT_TIME
            + " >= ? AND "
            + SliceTable.EVENT_TIME
            + " < ? ALLOW FILTERING";
  }

  /** Columns as {@link EventColumns#SELECTED} lists them. */
  private static InternalRow convert(Row row) {
    String series = row.getString(0);
    Instant time = row.getInstant(1);
    String eventId = row.getString(2);
    ByteBuffer key = row.getByteBuffer(3);
    byte[] keyBytes = new byte[key.remaining()];
    key.duplicate().get(keyBytes);
    String metadata = row.getString(5);
    byte[] value;
    try {
      value =
          ValueCodec.decode(
              row.getByteBuffer(4),
              metadata,
              row.getLong(6),
              metadata == null ? 0 : row.getLong(7));
    } catch (ValueCodec.CorruptValueException e) {
      throw new IllegalStateException(
          "stored value of time_series_id="
              + series
              + ", event_time="
              + time
              + ", event_id="
              + eventId
              + ", item_key (base64)="
              + Base64.getEncoder().encodeToString(keyBytes)
              + " cannot be read: "
              + e.getMessage(),
          e);
    }
    return new GenericInternalRow(
        new Object[] {
          UTF8String.fromString(series),
          Math.multiplyExact(time.toEpochMilli(), 1000L),
          UTF8String.fromString(eventId),
          keyBytes,
          value
        });
  }
}
