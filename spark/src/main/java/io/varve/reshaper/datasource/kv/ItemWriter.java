package io.varve.reshaper.datasource.kv;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.DefaultConsistencyLevel;
import com.datastax.oss.driver.api.core.cql.BoundStatement;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import com.datastax.spark.connector.cql.CassandraConnector;
import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvLimits;
import io.varve.core.kv.KvValidation;
import io.varve.format.ItemTable;
import io.varve.format.ItemValues;
import io.varve.format.ValueCodec;
import io.varve.reshaper.copy.Retries;
import io.varve.reshaper.datasource.InFlight;
import io.varve.reshaper.datasource.PackedWriter;
import io.varve.reshaper.datasource.StoredNamespace;
import io.varve.reshaper.datasource.TableGone;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.apache.spark.sql.catalyst.InternalRow;
import org.apache.spark.sql.connector.write.DataWriter;
import org.apache.spark.sql.connector.write.DataWriterFactory;

/**
 * Writes one Spark task's rows into a KeyValue namespace as PutItems writes items: each row checked
 * by core's {@link KvValidation} limits (the server's defaults), its value stored by the format's
 * {@link ItemValues} (compressed by the {@link ValueCodec} rule, chunked above the chunking
 * threshold), every cell written at the token's generation time. A chunked value is logged in the
 * staging log of the metadata keyspace first, as the server logs it (so the server's chunk sweeper
 * removes the chunks of a value this task wrote but never committed), then written {@value
 * #CHUNKS_IN_FLIGHT} chunks at a time, then committed by its item row. A row the namespace refuses
 * (an id or key over its limit, a value over {@code kv.chunks.maxValueBytes}, a generation time in
 * the future) is a bad row: counted, the first ones kept for the error, never written.
 *
 * <p>Item rows go out as {@link PackedWriter} packs and sends them: unlogged batches of the rows of
 * records with the same replicas. A write that still fails fails the task, so Spark runs it again.
 */
final class ItemWriter extends PackedWriter<ItemWriter.ItemRow> {

  static final int CHUNKS_IN_FLIGHT = 4;

  /**
   * Test-only: milliseconds to pause after a chunked value's chunks are written and before its item
   * row, so that a test can kill the process in between (the server's hook of the same name).
   * Honoured only when set.
   */
  static final String PAUSE_PROPERTY = "varve.test.kv.pauseAfterChunkStaging";

  /** What the tasks need, fixed on the driver. */
  record Factory(
      CassandraConnector connector,
      StoredNamespace namespace,
      String metadataKeyspace,
      String consistency,
      ItemColumns.Positions columns,
      String token,
      long generationMicros,
      int compressionThreshold,
      int chunkThreshold,
      int chunkSize,
      long maxBadRows)
      implements DataWriterFactory {
    @Override
    public DataWriter<InternalRow> createWriter(int partitionId, long taskId) {
      return new ItemWriter(this);
    }

    KvChunking chunking() {
      KvChunking d = KvChunking.DEFAULT;
      return new KvChunking(
          chunkThreshold,
          chunkSize,
          Math.max(d.maxValueBytes(), chunkThreshold),
          CHUNKS_IN_FLIGHT,
          d.sweepInterval(),
          d.grace(),
          d.recheck(),
          d.sweepBatch());
    }
  }

  /** One item row on its way. */
  record ItemRow(
      String id, ByteBuffer[] partition, byte[] key, long generation, ItemValues.Stored stored) {
    long bytes() {
      return key.length + stored.rowBytes();
    }

    boolean sameItem(ItemRow other) {
      return id.equals(other.id) && Arrays.equals(key, other.key);
    }
  }

  private final Factory factory;
  private final ConsistencyLevel consistency;
  private final ValueCodec codec;
  private final KvChunking chunking;
  private final KvLimits limits = KvLimits.DEFAULT;
  private final PreparedStatement insert;
  private final PreparedStatement insertChunk;
  private final PreparedStatement stage;

  private ItemWriter(Factory factory) {
    super(
        factory.connector(),
        factory.namespace().keyspace(),
        factory.namespace().name(),
        factory.consistency(),
        factory.maxBadRows(),
        new Packing<>(
            ItemRow::bytes,
            (previous, next) -> previous.id().equals(next.id()),
            ItemRow::partition,
            ItemRow::sameItem));
    this.factory = factory;
    this.consistency = DefaultConsistencyLevel.valueOf(factory.consistency());
    this.codec = new ValueCodec(factory.compressionThreshold());
    this.chunking = factory.chunking();
    String keyspace = CqlIdentifier.fromInternal(factory.namespace().keyspace()).asCql(true);
    String table = factory.namespace().table();
    try {
      this.insert =
          session.prepare(
              ItemTable.insertInto(
                  keyspace + '.' + CqlIdentifier.fromInternal(table).asCql(true), false));
      this.insertChunk =
          session.prepare(
              ItemTable.insertChunkInto(
                  keyspace
                      + '.'
                      + CqlIdentifier.fromInternal(ItemTable.chunkTable(table)).asCql(true)));
      this.stage =
          session.prepare(
              ItemTable.insertIntoChunkLog(
                  CqlIdentifier.fromInternal(factory.metadataKeyspace()).asCql(true)));
    } catch (RuntimeException e) {
      session.close();
      throw TableGone.translate(e, factory.namespace().name());
    }
  }

  /**
   * The row checked and stored, its chunks written when its value is chunked (its item row, sent
   * after, commits them); null when the namespace refuses it (a bad row).
   */
  @Override
  protected ItemRow convert(InternalRow row) {
    ItemRow item = item(row);
    if (item != null && item.stored().isChunked()) {
      writeChunks(item);
    }
    return item;
  }

  /** The row checked and stored, or null when the namespace refuses it (a bad row). */
  private ItemRow item(InternalRow row) {
    ItemColumns.Positions at = factory.columns();
    for (int column : new int[] {at.id(), at.key(), at.value()}) {
      if (row.isNullAt(column)) {
        String name =
            column == at.id()
                ? ItemColumns.ID
                : column == at.key() ? ItemColumns.KEY : ItemColumns.VALUE;
        badRows.refuse(rowNumber, name + ": null (expected: a value)");
        return null;
      }
    }
    String id = row.getUTF8String(at.id()).toString();
    byte[] key = row.getBinary(at.key());
    byte[] value = row.getBinary(at.value());
    long generation =
        at.generationTime() < 0 || row.isNullAt(at.generationTime())
            ? factory.generationMicros()
            : row.getLong(at.generationTime());
    try {
      KvValidation.id(id, limits);
    } catch (InvalidFieldException e) {
      badRows.refuse(rowNumber, e.getMessage());
      return null;
    }
    if (key.length > limits.maxKeyBytes()) {
      badRows.refuse(
          rowNumber,
          "key: " + key.length + " bytes (expected: at most " + limits.maxKeyBytes() + " bytes)");
      return null;
    }
    if (value.length > chunking.maxValueBytes()) {
      badRows.refuse(
          rowNumber,
          "value: "
              + value.length
              + " bytes (expected: at most "
              + chunking.maxValueBytes()
              + " bytes, kv.chunks.maxValueBytes)");
      return null;
    }
    long latest = (System.currentTimeMillis() + limits.maxTokenLead().toMillis()) * 1000;
    if (generation <= 0 || generation > latest) {
      badRows.refuse(
          rowNumber,
          ItemColumns.GENERATION_TIME
              + ": "
              + Instant.EPOCH.plusNanos(generation * 1000)
              + " (expected: after 1970 and at most kv.limits.maxTokenLead ("
              + limits.maxTokenLead().toSeconds()
              + "s) after this host's clock: a write in the future would shadow every write"
              + " until then)");
      return null;
    }
    return new ItemRow(
        id,
        new ByteBuffer[] {
          TypeCodecs.TEXT.encode(id, com.datastax.oss.driver.api.core.ProtocolVersion.DEFAULT)
        },
        key,
        generation,
        ItemValues.store(value, false, value.length, factory.token(), codec, chunking));
  }

  /**
   * Logs a chunked value in the staging log, then writes its chunks; returns once they are all
   * written. Its item row, sent after, commits them.
   */
  private void writeChunks(ItemRow item) {
    Instant started = Instant.now();
    int chunks = item.stored().metadataFields().chunks();
    ByteBuffer key = ByteBuffer.wrap(item.key());
    inFlight.await(
        stage
            .bind(
                ItemTable.chunkLogShard(item.id(), item.key()),
                started.plus(chunking.grace()),
                factory.namespace().keyspace(),
                factory.namespace().table(),
                item.id(),
                key,
                item.generation(),
                factory.token(),
                chunks)
            .setConsistencyLevel(DefaultConsistencyLevel.LOCAL_QUORUM));
    ArrayDeque<CompletableFuture<Throwable>> pending = new ArrayDeque<>();
    for (int i = 0; i < chunks; i++) {
      if (pending.size() == CHUNKS_IN_FLIGHT) {
        inFlight.fail(pending.poll().join());
      }
      pending.add(
          Retries.execute(
                  session,
                  insertChunk
                      .bind(
                          item.id(),
                          key,
                          item.generation(),
                          factory.token(),
                          i,
                          ItemValues.chunk(item.stored().stored(), i, chunking.chunkSize()),
                          item.generation())
                      .setConsistencyLevel(consistency),
                  InFlight.RETRIES)
              .toCompletableFuture());
    }
    while (!pending.isEmpty()) {
      inFlight.fail(pending.poll().join());
    }
    pauseForTests();
    Duration took = Duration.between(started, Instant.now());
    if (took.compareTo(chunking.grace().dividedBy(2)) > 0) {
      // the sweeper may take the chunks of a value staged longer than the grace ago
      throw new IllegalStateException(
          "writing the chunks of id="
              + item.id()
              + " took "
              + took.toMillis()
              + " ms, more than half the chunk grace; the task is run again");
    }
  }

  private static void pauseForTests() {
    String pause = System.getProperty(PAUSE_PROPERTY);
    if (pause != null) {
      try {
        Thread.sleep(Long.parseLong(pause));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
  }

  @Override
  protected BoundStatement bind(ItemRow row) {
    return insert.bind(
        row.id(),
        ByteBuffer.wrap(row.key()),
        row.stored().cell(),
        ByteBuffer.wrap(row.stored().metadata()),
        row.generation());
  }
}
