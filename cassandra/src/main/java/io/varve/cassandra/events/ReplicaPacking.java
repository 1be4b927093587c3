package io.varve.cassandra.events;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import io.varve.packing.Batch;
import io.varve.packing.PackingLimits;
import io.varve.packing.Placement;
import io.varve.packing.ReplicaPacker;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.List;
import java.util.Optional;

/**
 * Groups the write batches of one request so that fewer CQL requests carry them: small
 * single-partition batches whose partitions have the same replicas are packed together, at most
 * {@value #MAX_PARTITIONS} partitions and about {@value #MAX_PACKED_BYTES} bytes of row values per
 * packed batch (under Cassandra's default {@code unlogged_batch_across_partitions_warn_threshold}
 * of 10 and {@code batch_size_warn_threshold} of 5 KiB). The coordinator the driver picks for a
 * packed batch (a replica of its first partition) is then a replica of every partition in it, so
 * the batch costs the cluster what its single-partition parts would, in one request instead of
 * several. Larger batches, and every batch when the driver has no token map, go out alone as
 * before. The packing itself is {@link ReplicaPacker}'s, which the reshaper shares; this class
 * answers its questions from this driver's token map.
 */
final class ReplicaPacking {

  static final int MAX_PARTITIONS = 10;
  static final int MAX_PACKED_BYTES = 4096;
  static final PackingLimits LIMITS =
      new PackingLimits(MAX_PARTITIONS, MAX_PARTITIONS, MAX_PACKED_BYTES);

  /**
   * One partition's share of a batch, with its partition key columns encoded once (for the token
   * and for every row).
   */
  record Part(
      PartitionKey key,
      List<PlacedEvent> events,
      ByteBuffer series,
      ByteBuffer timeBucket,
      ByteBuffer eventBucket) {

    static Part of(PartitionKey key, List<PlacedEvent> events) {
      return new Part(
          key,
          events,
          TypeCodecs.TEXT.encode(key.timeSeriesId(), ProtocolVersion.DEFAULT),
          TypeCodecs.TIMESTAMP.encode(
              Instant.ofEpochMilli(key.timeBucketMillis()), ProtocolVersion.DEFAULT),
          TypeCodecs.INT.encode(key.eventBucket(), ProtocolVersion.DEFAULT));
    }
  }

  private ReplicaPacking() {}

  /** The request's batches, each of parts of one table. */
  static List<Batch<Part>> pack(CqlSession session, String keyspace, List<Part> parts) {
    Optional<TokenMap> tokens = session.getMetadata().getTokenMap();
    CqlIdentifier ks = CqlIdentifier.fromInternal(keyspace);
    // each part counts as a partition: parts of one partition meet only around events near 1 MiB
    return ReplicaPacker.byReplicas(
        parts,
        LIMITS,
        Placement.of(
            ReplicaPacking::bytes,
            (previous, next) -> false,
            part -> tokens.map(t -> replicas(t, ks, part)).orElse(null)));
  }

  /** The part's table and the replicas of its partition: a packed batch is of one table. */
  private static Object replicas(TokenMap tokens, CqlIdentifier keyspace, Part part) {
    return List.of(
        part.key().table(),
        tokens.getReplicas(
            keyspace,
            tokens.newToken(
                part.series().duplicate(),
                part.timeBucket().duplicate(),
                part.eventBucket().duplicate())));
  }

  /**
   * What Cassandra counts as the part's size in a batch, about: every row's values, the key columns
   * included (time series id, buckets, event time and id, item key and value).
   */
  static long bytes(Part part) {
    long total = 0;
    int series = part.series().remaining();
    for (PlacedEvent e : part.events()) {
      int id = e.event().eventId().length() * 3;
      total +=
          e.event().payloadBytes() + (long) e.event().items().size() * (series + id + 8 + 4 + 8);
    }
    return total;
  }
}
