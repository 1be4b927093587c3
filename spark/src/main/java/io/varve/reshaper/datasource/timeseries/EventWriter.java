package io.varve.reshaper.datasource.timeseries;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.event.Limits;
import io.varve.core.event.WriteValidator;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.Rejection;
import io.varve.core.write.WritePlanner;
import io.varve.format.SliceTable;
import io.varve.format.ValueCodec;
import io.varve.reshaper.datasource.PackedWriter;
import io.varve.reshaper.datasource.StoredNamespace;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;

/**
 * Writes one Spark task's rows into a namespace's slice tables as the server writes events: each
 * row checked by core's {@link WriteValidator} (the server's default limits), placed by core's
 * {@link WritePlanner} in its slice, time bucket and event bucket, its value encoded by the
 * format's {@link ValueCodec}, written with {@link SliceTable#insertInto}. A row the namespace
 * refuses (outside its write window, in a closed slice or none, over a limit, an event time with
 * microseconds) is a bad row: counted, the first ones kept for the error, never written.
 *
 * <p>Rows go out as {@link PackedWriter} packs and sends them: unlogged batches of the rows of
 * partitions with the same replicas. A batch that still fails fails the task, so Spark runs it
 * again.
 */
final class EventWriter extends PackedWriter<EventWriter.ItemRow> {

  /** What the tasks need, fixed on the driver. */
  record Factory(
      CassandraConnector connector,
      StoredNamespace namespace,
      String consistency,
      long nowMillis,
      int compressionThreshold,
      long maxBadRows)
      implements DataWriterFactory {
    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
      return new EventWriter(this);
    }
  }

  /** One item row on its way. */
  record ItemRow(
      PartitionKey key,
      ByteBuffer[] partition,
      long eventTime,
      String eventId,
      byte[] itemKey,
      ValueCodec.Stored stored) {
    long bytes() {
      return itemKey.length + stored.value().remaining();
    }

    boolean sameRow(ItemRow other) {
      return key.equals(other.key)
          && eventTime == other.eventTime
          && eventId.equals(other.eventId)
          && java.util.Arrays.equals(itemKey, other.itemKey);
    }
  }

  private final Factory factory;
  private final WritePlanner.Placer placer;
  private PartitionKey lastPartition;
  private ByteBuffer[] lastEncoded;
  private final ValueCodec codec;
  private final WriteValidator validator = new WriteValidator(Limits.DEFAULT);
  private final Map<String, PreparedStatement> inserts = new HashMap<>();

  private EventWriter(Factory factory) {
    super(
        factory.connector(),
        factory.namespace().keyspace(),
        factory.namespace().name(),
        factory.consistency(),
        factory.maxBadRows(),
        new Packing<>(
            ItemRow::bytes,
            (previous, next) -> previous.key().equals(next.key()),
            ItemRow::partition,
            ItemRow::sameRow));
    this.factory = factory;
    this.placer =
        new WritePlanner.Placer(
            factory.namespace().acceptLimit(),
            factory.namespace().timeSlices(),
            Instant.ofEpochMilli(factory.nowMillis()),
            FUTURE_LIMIT);
    this.codec = new ValueCodec(factory.compressionThreshold());
  }

  /** The row placed and encoded, or null when the namespace refuses it (a bad row). */
  @Override
  protected ItemRow convert(InternalRow row) {
    for (int i = 0; i < EventColumns.SCHEMA.size(); i++) {
      if (row.isNullAt(i)) {
        bad(EventColumns.SCHEMA.fields()[i].name() + ": null (expected: a value)", row);
        return null;
      }
    }
    String series = row.getUTF8String(0).toString();
    long micros = row.getLong(1);
    String eventId = row.getUTF8String(2).toString();
    byte[] key = row.getBinary(3);
    byte[] value = row.getBinary(4);
    if (micros % 1000 != 0) {
      bad(
          EventColumns.EVENT_TIME
              + ": "
              + Instant.EPOCH.plusNanos(micros * 1000)
              + " (expected: whole milliseconds, as event times are stored)",
          row);
      return null;
    }
    long millis = micros / 1000;
    Event event = new Event(series, millis, eventId, List.of(new EventItem(key, value)));
    try {
      validator.validate(List.of(event));
    } catch (InvalidFieldException e) {
      bad(columnNames(e.getMessage()), row);
      return null;
    }
    List<Rejection> refused = new ArrayList<>(0);
    PartitionKey partition = placer.place(0, event, refused);
    if (partition == null) {
      bad(EventColumns.EVENT_TIME + ": " + columnNames(refused.get(0).message()), row);
      return null;
    }
    if (!partition.equals(lastPartition)) { // rows of one partition usually come together
      lastPartition = partition;
      lastEncoded =
          new ByteBuffer[] {
            TypeCodecs.TEXT.encode(series, ProtocolVersion.DEFAULT),
            TypeCodecs.TIMESTAMP.encode(
                Instant.ofEpochMilli(partition.timeBucketMillis()), ProtocolVersion.DEFAULT),
            TypeCodecs.INT.encode(partition.eventBucket(), ProtocolVersion.DEFAULT)
          };
    }
    return new ItemRow(partition, lastEncoded, millis, eventId, key, codec.encode(value));
  }

  /**
   * How far ahead of the write's time events are taken: the server's default {@code
   * timeseries.limits.futureLimit}. Slices exist only that far ahead anyway.
   */
  static final Duration FUTURE_LIMIT = Limits.DEFAULT.futureLimit();

  /** The API's field names in a core message, as this data source's columns. */
  static String columnNames(String message) {
    return message
        .replaceAll("events\\[\\d+\\]\\.eventItems\\[\\d+\\]\\.eventItemKey", EventColumns.ITEM_KEY)
        .replaceAll(
            "events\\[\\d+\\]\\.eventItems\\[\\d+\\]\\.eventItemValue", EventColumns.ITEM_VALUE)
        .replaceAll("events\\[\\d+\\]\\.timeSeriesId", EventColumns.TIME_SERIES_ID)
        .replaceAll("events\\[\\d+\\]\\.eventId", EventColumns.EVENT_ID)
        .replaceAll("events\\[\\d+\\] ", "the row ")
        .replace("timeSeriesId=", "time_series_id=")
        .replace("eventId=", "event_id=")
        .replace("eventTime=", "event_time=");
  }

  private void bad(String reason, InternalRow row) {
    badRows.refuse(rowNumber, reason);
  }

  @Override
  protected BoundStatement bind(ItemRow row) {
    PreparedStatement insert =
        inserts.computeIfAbsent(
            row.key().table(),
            table ->
                session.prepare(
                    SliceTable.insertInto(
                        CqlIdentifier.fromInternal(factory.namespace().keyspace()).asCql(true)
                            + '.'
                            + CqlIdentifier.fromInternal(table).asCql(true))));
    return insert
        .boundStatementBuilder()
        .setBytesUnsafe(0, row.partition()[0].duplicate())
        .setBytesUnsafe(1, row.partition()[1].duplicate())
        .setBytesUnsafe(2, row.partition()[2].duplicate())
        .setInstant(3, Instant.ofEpochMilli(row.eventTime()))
        .setString(4, row.eventId())
        .setByteBuffer(5, ByteBuffer.wrap(row.itemKey()))
        .setByteBuffer(6, row.stored().value())
        .setString(7, row.stored().metadata())
        .build();
  }
}
