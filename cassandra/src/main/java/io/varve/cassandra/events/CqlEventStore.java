package io.varve.cassandra.events;

import com.datastax.oss.driver.api.core.ConsistencyLevel;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.cql.BatchStatement;
import com.datastax.oss.driver.api.core.cql.BatchStatementBuilder;
import com.datastax.oss.driver.api.core.cql.BatchType;
import com.datastax.oss.driver.api.core.cql.BoundStatementBuilder;
import com.datastax.oss.driver.api.core.cql.PreparedStatement;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.cassandra.cql.ConsistencyLevels;
import io.varve.cassandra.failure.CqlFailures;
import io.varve.core.error.VarveException;
import io.varve.core.event.Event;
import io.varve.core.event.EventItem;
import io.varve.core.limit.AsyncLimiter;
import io.varve.core.namespace.Consistency;
import io.varve.core.read.PartitionReader;
import io.varve.core.read.ReadBytes;
import io.varve.core.read.ScanBudget;
import io.varve.core.store.EventStore;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import io.varve.format.ValueCodec;
import io.varve.packing.Batch;
import io.varve.packing.PackingLimits;
import io.varve.packing.Placement;
import io.varve.packing.ReplicaPacker;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Writes and reads events in slice tables. A partition's events go out as unlogged batches of at
 * most {@value #MAX_BATCH_BYTES} bytes (a single-partition unlogged batch is one mutation on the
 * replica); small batches of partitions with the same replicas share one request ({@link
 * ReplicaPacking}); batches are idempotent, so the driver may retry them. The batches in flight are
 * bounded in number ({@code maxInFlight}) and in bytes ({@code maxInFlightBytes}): what a node
 * takes in at once must fit its heap beside its memtables, or a burst of large batches brings it
 * down. Failures are classified by {@link CqlFailures}, per batch for the events it carried.
 */
public final class CqlEventStore implements EventStore {

  static final int MAX_BATCH_BYTES = 1024 * 1024;
  private static final PackingLimits ONE_PARTITION =
      new PackingLimits(Integer.MAX_VALUE, 1, MAX_BATCH_BYTES);

  private final CqlSession session;
  private final SliceStatements statements;
  private final ValueCodec codec;
  private final AsyncLimiter limiter;

  /**
   * Partition reads in flight at once, whatever the reads and searches running: a search page reads
   * one partition per hit (up to 1000), a read up to {@code timeseries.maxReadFanout}, and the
   * driver refuses requests beyond its connections' limit (1024 each, two per node) as if the node
   * were down. Beyond this bound, fetches wait in order; a read whose budget stopped while its
   * fetch waited does not send it.
   */
  public static final int MAX_READS_IN_FLIGHT = 1024;

  /**
   * Partition reads waiting for one of {@link #MAX_READS_IN_FLIGHT} at most: beyond it a fetch is
   * refused RESOURCE_EXHAUSTED (its read or search answers 429) rather than queued, so that what
   * waits stays a few MiB however many reads are admitted.
   */
  public static final int MAX_READS_WAITING = 16 * MAX_READS_IN_FLIGHT;

  /**
   * Bytes of the partition reads in flight at once, as their fetches expect to bring ({@link
   * RowSizes}): what the nodes hold at once to answer this server's reads. A fetch larger on its
   * own runs alone.
   */
  public static final long MAX_READ_BYTES_IN_FLIGHT = 64L << 20;

  /** The name of the write limiter a store makes for itself: its bounds' metric label. */
  public static final String WRITES = "cassandra_writes";

  /** The name of the read limiter a store makes for itself: its bounds' metric label. */
  public static final String READS = "cassandra_reads";

  private final AsyncLimiter reads;
  private final RowSizes rowSizes = new RowSizes();

  public CqlEventStore(
      CqlSession session, int maxInFlight, long maxInFlightBytes, int compressionThreshold) {
    this(session, new AsyncLimiter(WRITES, maxInFlight, maxInFlightBytes), compressionThreshold);
  }

  /** A store whose writes share {@code limiter} with other writers of the same cluster. */
  public CqlEventStore(CqlSession session, AsyncLimiter limiter, int compressionThreshold) {
    this(session, limiter, newReadLimiter(), compressionThreshold);
  }

  /**
   * A store whose writes share {@code limiter} and whose reads share {@code reads} with other
   * stores: those of the other clusters of one server, which bound what the server holds.
   */
  public CqlEventStore(
      CqlSession session, AsyncLimiter limiter, AsyncLimiter reads, int compressionThreshold) {
    this.reads = reads;
    this.session = session;
    this.statements = new SliceStatements(session);
    this.codec = new ValueCodec(compressionThreshold);
    this.limiter = limiter;
  }

  /** A new bound on partition reads in flight: {@link #MAX_READS_IN_FLIGHT} reads, 64 MiB. */
  public static AsyncLimiter newReadLimiter() {
    return new AsyncLimiter(READS, MAX_READS_IN_FLIGHT, MAX_READ_BYTES_IN_FLIGHT);
  }

  @Override
  public CompletionStage<Map<Integer, VarveException>> write(
      String keyspace, Map<PartitionKey, List<PlacedEvent>> partitions, Consistency consistency) {
    ConsistencyLevel level = ConsistencyLevels.of(consistency);
    Map<Integer, VarveException> failures = new ConcurrentHashMap<>();
    List<ReplicaPacking.Part> parts = new ArrayList<>();
    partitions.forEach(
        (key, events) -> {
          rowSizes.saw(keyspace, key.table(), largestRow(events));
          chunks(lastVersions(events))
              .forEach(chunk -> parts.add(ReplicaPacking.Part.of(key, chunk)));
        });
    List<CompletableFuture<Void>> batches = new ArrayList<>();
    for (Batch<ReplicaPacking.Part> batch : ReplicaPacking.pack(session, keyspace, parts)) {
      List<ReplicaPacking.Part> packed = batch.items();
      long bytes = batch.bytes();
      CompletionStage<Void> done =
          statements
              .of(keyspace, packed.get(0).key().table())
              .thenCompose(
                  p ->
                      limiter.submit(
                          bytes, () -> session.executeAsync(batch(p.insert(), packed, level))))
              .thenApply(rs -> null);
      batches.add(
          done.exceptionally(
                  error -> {
                    VarveException failure = CqlFailures.classify(error);
                    packed.forEach(
                        part -> part.events().forEach(e -> failures.put(e.index(), failure)));
                    return null;
                  })
              .toCompletableFuture());
    }
    return CompletableFuture.allOf(batches.toArray(CompletableFuture[]::new))
        .thenApply(v -> failures);
  }

  @Override
  public PartitionReader reader(
      String keyspace,
      String timeSeriesId,
      Consistency consistency,
      ScanBudget budget,
      ReadBytes bytes) {
    return new CqlPartitionReader(
        session,
        statements,
        keyspace,
        timeSeriesId,
        ConsistencyLevels.of(consistency),
        budget,
        bytes,
        reads,
        rowSizes);
  }

  /**
   * The largest item row of {@code events}, keys and values as given (an upper bound of stored).
   */
  private static long largestRow(List<PlacedEvent> events) {
    long largest = 0;
    for (PlacedEvent placed : events) {
      for (EventItem item : placed.event().items()) {
        largest = Math.max(largest, (long) item.key().length + item.value().length);
      }
    }
    return largest;
  }

  @Override
  public CompletionStage<Long> scan(
      String keyspace,
      String table,
      long fromMillis,
      long toMillis,
      Consistency consistency,
      int batchSize,
      java.util.function.Function<List<io.varve.core.event.Event>, CompletionStage<Void>> sink) {
    return CqlFailures.translated(
        CqlTableScan.run(
            session,
            rowSizes,
            keyspace,
            table,
            fromMillis,
            toMillis,
            ConsistencyLevels.of(consistency),
            batchSize,
            sink));
  }

  private BatchStatement batch(
      PreparedStatement insert, List<ReplicaPacking.Part> parts, ConsistencyLevel level) {
    BatchStatementBuilder batch = BatchStatement.builder(BatchType.UNLOGGED);
    for (ReplicaPacking.Part part : parts) {
      addRows(batch, insert, part);
    }
    return batch.setConsistencyLevel(level).setIdempotence(true).build();
  }

  private void addRows(
      BatchStatementBuilder batch, PreparedStatement insert, ReplicaPacking.Part part) {
    for (PlacedEvent placed : part.events()) {
      ByteBuffer time =
          TypeCodecs.TIMESTAMP.encode(
              Instant.ofEpochMilli(placed.event().eventTimeMillis()), ProtocolVersion.DEFAULT);
      ByteBuffer eventId =
          TypeCodecs.TEXT.encode(placed.event().eventId(), ProtocolVersion.DEFAULT);
      for (EventItem item : placed.event().items()) {
        ValueCodec.Stored stored = codec.encode(item.value());
        // typed setters: the driver needs no codec lookup by value for each of the 8 columns
        // value_metadata is always set, to "" when there is none (a null would be a tombstone):
        // left unset, an overwrite would keep an earlier value's compression marker
        // the partition key columns are encoded once per partition (bound as bytes, read-only
        // views)
        BoundStatementBuilder row =
            insert
                .boundStatementBuilder()
                .setBytesUnsafe(0, part.series().duplicate())
                .setBytesUnsafe(1, part.timeBucket().duplicate())
                .setBytesUnsafe(2, part.eventBucket().duplicate())
                .setBytesUnsafe(3, time.duplicate())
                .setBytesUnsafe(4, eventId.duplicate())
                .set(5, ByteBuffer.wrap(item.key()), TypeCodecs.BLOB)
                .set(6, stored.value(), TypeCodecs.BLOB)
                .set(7, stored.metadata(), TypeCodecs.TEXT);
        batch.addStatement(row.build());
      }
    }
  }

  /**
   * A partition's events with every stored row once: when several carry an item of the same
   * identity (event time, event id, item key), as when the buffer coalesces requests that rewrote
   * an event, only the last one keeps it. Rows of one batch share its write timestamp, and
   * Cassandra settles two writes of one cell with the same timestamp by the larger value, cell by
   * cell: two versions of a row in one batch would store the value of one beside the compression
   * marker of the other. The events that lose all their items are left out; they count as written.
   * The list itself when nothing repeats.
   */
  static List<PlacedEvent> lastVersions(List<PlacedEvent> events) {
    if (events.size() < 2) {
      return events;
    }
    Set<RowIdentity> seen = new HashSet<>();
    boolean repeated = false;
    for (PlacedEvent placed : events) {
      for (EventItem item : placed.event().items()) {
        repeated |= !seen.add(RowIdentity.of(placed.event(), item));
      }
    }
    if (!repeated) {
      return events;
    }
    seen.clear();
    List<PlacedEvent> kept = new ArrayList<>(events.size());
    for (int i = events.size() - 1; i >= 0; i--) {
      PlacedEvent placed = events.get(i);
      Event event = placed.event();
      List<EventItem> items = new ArrayList<>(event.items().size());
      for (EventItem item : event.items()) {
        if (seen.add(RowIdentity.of(event, item))) {
          items.add(item);
        }
      }
      if (items.size() == event.items().size()) {
        kept.add(placed);
      } else if (!items.isEmpty()) {
        kept.add(
            new PlacedEvent(
                placed.index(),
                new Event(event.timeSeriesId(), event.eventTimeMillis(), event.eventId(), items),
                placed.partition()));
      }
    }
    Collections.reverse(kept);
    return kept;
  }

  /** What identifies a stored row within a partition. */
  private record RowIdentity(long eventTimeMillis, String eventId, ByteBuffer itemKey) {
    static RowIdentity of(Event event, EventItem item) {
      return new RowIdentity(event.eventTimeMillis(), event.eventId(), ByteBuffer.wrap(item.key()));
    }
  }

  /**
   * Splits a partition's events into batches of about {@value #MAX_BATCH_BYTES} bytes; an event is
   * never split.
   */
  static List<List<PlacedEvent>> chunks(List<PlacedEvent> events) {
    return ReplicaPacker.inOrder(
            events,
            ONE_PARTITION,
            Placement.<PlacedEvent>onePartition(e -> e.event().payloadBytes()))
        .stream()
        .map(Batch::items)
        .toList();
  }
}
