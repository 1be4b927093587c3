package io.varve.reshaper.datasource.timeseries;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.format.SliceTable;
import io.varve.format.ValueCodec;
import io.varve.reshaper.datasource.ScanReader;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.Base64;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Runs a part's reads in a Spark task, as {@link ScanReader} runs them (token ranges of slices, or
 * partitions by key), each row an event item with its value decoded by the storage format's {@link
 * ValueCodec}, as the server decodes it. A value that cannot be decoded fails the task with the
 * identity of its row.
 */
final class EventReader extends ScanReader {

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
  private final Map<String, PreparedStatement> prepared = new HashMap<>();

  private EventReader(Factory factory, EventReads.Part part) {
    super(factory.connector(), factory.namespace(), factory.consistency(), factory.fetchSize());
    this.factory = factory;
    Iterator<EventReads.Read> planned = part.reads();
    reads(
        new Iterator<>() {
          @Override
          public boolean hasNext() {
            return planned.hasNext();
          }

          @Override
          public BoundStatement next() {
            return bind(planned.next());
          }
        });
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
  @Override
  protected InternalRow convert(Row row) {
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
