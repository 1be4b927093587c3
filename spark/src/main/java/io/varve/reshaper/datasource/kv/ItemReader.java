package io.varve.reshaper.datasource.kv;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.cql.Row;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.core.kv.ValueMetadata;
import io.varve.format.ItemTable;
import io.varve.format.ItemValues;
import io.varve.format.ValueCodec;
import io.varve.reshaper.datasource.ScanReader;
import io.varve.reshaper.datasource.TableGone;
import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.Base64;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.catalyst.expressions.GenericInternalRow;
import org.apache.spark.sql.connector.read.InputPartition;
import org.apache.spark.sql.connector.read.PartitionReader;
import org.apache.spark.sql.connector.read.PartitionReaderFactory;
import org.apache.spark.unsafe.types.UTF8String;

/**
 * Runs a part's reads in a Spark task, as {@link ScanReader} runs them: a token range of the item
 * table, or records by key. Each row becomes an item as GetItems returns it: an item a delete
 * marked expired is skipped; a value in its row is decoded by the format ({@link ItemValues}); a
 * chunked value is read from the chunk table, {@value #CHUNKS_IN_FLIGHT} chunks at a time, put
 * together and checked. When a chunk is missing or the bytes do not match (a newer write replaced
 * the value and the sweeper took the old chunks), the item row is read again and its current value
 * taken, up to {@value #ATTEMPTS} times, as the server does; then the task fails naming the item.
 */
final class ItemReader extends ScanReader {

  static final int ATTEMPTS = 3;
  static final int CHUNKS_IN_FLIGHT = 4;

  private static final String SELECTED =
      "SELECT "
          + ItemTable.ID
          + ", "
          + ItemTable.KEY
          + ", "
          + ItemTable.VALUE
          + ", WRITETIME("
          + ItemTable.VALUE
          + ") FROM ";

  /** What every task needs, serializable. */
  record Factory(
      CassandraConnector connector,
      String namespace,
      String keyspace,
      String table,
      String consistency,
      int fetchSize)
      implements PartitionReaderFactory {
    @Override
    public PartitionReader<InternalRow> createReader(InputPartition partition) {
      return new ItemReader(this, (KvScan.Part) partition);
    }
  }

  private final Factory factory;
  private final DefaultConsistencyLevel consistency;
  private final PreparedStatement byKey;
  private final PreparedStatement chunk;

  private ItemReader(Factory factory, KvScan.Part part) {
    super(factory.connector(), factory.namespace(), factory.consistency(), factory.fetchSize());
    this.factory = factory;
    this.consistency = DefaultConsistencyLevel.valueOf(factory.consistency());
    try {
      String items = qualified(factory.keyspace(), factory.table());
      String select = SELECTED + items + " WHERE ";
      this.byKey = session.prepare(select + ItemTable.ID + " = ? AND " + ItemTable.KEY + " = ?");
      this.chunk =
          session.prepare(
              ItemTable.selectChunkFrom(
                  qualified(factory.keyspace(), ItemTable.chunkTable(factory.table()))));
      if (part.ids().isEmpty()) {
        PreparedStatement range =
            session.prepare(
                select + "token(" + ItemTable.ID + ") > ? AND token(" + ItemTable.ID + ") <= ?");
        reads(java.util.List.of(range.bind(part.start(), part.end())).iterator());
      } else {
        PreparedStatement record = session.prepare(select + ItemTable.ID + " = ?");
        reads(part.ids().stream().map(id -> (BoundStatement) record.bind(id)).iterator());
      }
    } catch (RuntimeException e) {
      session.close();
      throw TableGone.translate(e, factory.namespace());
    }
  }

  private static String qualified(String keyspace, String table) {
    return CqlIdentifier.fromInternal(keyspace).asCql(true)
        + '.'
        + CqlIdentifier.fromInternal(table).asCql(true);
  }

  /** The item of a fetched row, its value whole; null when a delete marked it expired. */
  @Override
  protected InternalRow convert(Row row) {
    return item(row.getString(0), row.getByteBuffer(1), row);
  }

  private InternalRow item(String id, ByteBuffer key, Row row) {
    Row now = row;
    for (int attempt = 1; attempt <= ATTEMPTS; attempt++) {
      ByteBuffer cell = now.getByteBuffer(2);
      long generation = now.getLong(3);
      try {
        ValueMetadata m = ValueMetadata.decode(cell);
        if (m.expired()) {
          return null;
        }
        byte[] value;
        if (!m.isChunked()) {
          value = ItemValues.inline(cell, m, false);
        } else {
          byte[] stored = chunks(id, key, generation, m);
          value = stored == null ? null : ItemValues.value(ByteBuffer.wrap(stored), m, false);
        }
        if (value != null) {
          return new GenericInternalRow(
              new Object[] {UTF8String.fromString(id), bytes(key), value, generation});
        }
      } catch (IllegalArgumentException | ValueCodec.CorruptValueException e) {
        throw new IllegalStateException(
            "stored value of " + identity(id, key) + " cannot be read: " + e.getMessage(), e);
      }
      now = session.execute(byKey.bind(id, key).setConsistencyLevel(consistency)).one();
      if (now == null) {
        return null; // deleted meanwhile
      }
    }
    throw new IllegalStateException(
        "the chunks of the value of "
            + identity(id, key)
            + " are missing or do not match their checksum after "
            + ATTEMPTS
            + " reads; run the read again");
  }

  /** The stored bytes of a chunked value, checked; null when a chunk is missing or differs. */
  private byte[] chunks(String id, ByteBuffer key, long generation, ValueMetadata m) {
    ItemValues.Assembly assembly = new ItemValues.Assembly(m);
    ArrayDeque<CompletableFuture<Void>> inFlight = new ArrayDeque<>();
    try {
      for (int i = 0; i < m.chunks(); i++) {
        if (inFlight.size() == CHUNKS_IN_FLIGHT) {
          inFlight.poll().join();
        }
        int index = i;
        inFlight.add(
            session
                .executeAsync(
                    chunk
                        .bind(id, key, generation, m.token(), index)
                        .setConsistencyLevel(consistency)
                        .setIdempotent(true))
                .thenAccept(
                    rs -> {
                      Row r = rs.one();
                      assembly.put(index, r == null ? null : r.getByteBuffer(0));
                    })
                .toCompletableFuture());
      }
      inFlight.forEach(CompletableFuture::join);
    } catch (CompletionException e) {
      throw e.getCause() instanceof RuntimeException r ? r : e;
    }
    return assembly.stored();
  }

  private static byte[] bytes(ByteBuffer buffer) {
    byte[] bytes = new byte[buffer.remaining()];
    buffer.duplicate().get(bytes);
    return bytes;
  }

  private static String identity(String id, ByteBuffer key) {
    return "id=" + id + ", key (base64)=" + Base64.getEncoder().encodeToString(bytes(key));
  }
}
