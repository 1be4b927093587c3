package io.varve.cassandra.events;

import com.datastax.oss.driver.api.core.CqlIdentifier;
import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.ProtocolVersion;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.TokenMap;
import com.datastax.oss.driver.api.core.type.codec.TypeCodecs;
import io.varve.core.write.PartitionKey;
import io.varve.core.write.PlacedEvent;
import java.nio.ByteBuffer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Groups the write batches of one request so that fewer CQL requests carry them: small
 * single-partition batches whose partitions have the same replicas are packed together, at most
 * {@value #MAX_PARTITIONS} partitions and about {@value #MAX_PACKED_BYTES} bytes of row values per
 * packed batch (under Cassandra's default {@code unlogged_batch_across_partitions_warn_threshold} of 10 and
 * {@code batch_size_warn_threshold} of 5 KiB). The coordinator the driver picks for a packed batch
 * (a replica of its first partition) is then a replica of every partition in it, so the batch costs
 * the cluster what its single-partition parts would, in one request instead of several. Larger
 * batches, and every batch when the driver has no token map, go out alone as before.
 */
final class ReplicaPacking {

  static final int MAX_PARTITIONS = 10;
  static final int MAX_PACKED_BYTES = 4096;

  /**
   * One partition's share of a batch, with its partition key columns encoded once (for the token
   * and for every row).
   */
  record Part(PartitionKey key, List<PlacedEvent> events, ByteBuffer series, ByteBuffer timeBucket,
      ByteBuffer eventBucket) {

    static Part of(PartitionKey key, List<PlacedEvent> events) {
      return new Part(key, events, TypeCodecs.TEXT.encode(key.timeSeriesId(), ProtocolVersion.DEFAULT),
          TypeCodecs.TIMESTAMP.encode(Instant.ofEpochMilli(key.timeBucketMillis()), ProtocolVersion.DEFAULT),
          TypeCodecs.INT.encode(key.eventBucket(), ProtocolVersion.DEFAULT));
    }
  }

  private ReplicaPacking() {}

  /** The request's batches, each a list of parts of one table. */
  static List<List<Part>> pack(CqlSession session, String keyspace, List<Part> parts) {
    Optional<TokenMap> tokens = session.getMetadata().getTokenMap();
    List<List<Part>> batches = new ArrayList<>();
    Map<Object, List<Part>> packable = new LinkedHashMap<>();
    CqlIdentifier ks = CqlIdentifier.fromInternal(keyspace);
    for (Part part : parts) {
      if (tokens.isEmpty() || bytes(part) > MAX_PACKED_BYTES) {
        batches.add(List.of(part));
        continue;
      }
      Set<Node> replicas = tokens.get().getReplicas(ks, tokens.get().newToken(part.series().duplicate(),
          part.timeBucket().duplicate(), part.eventBucket().duplicate()));
      packable.computeIfAbsent(List.of(part.key().table(), replicas), k -> new ArrayList<>()).add(part);
    }
    for (List<Part> group : packable.values()) {
      batches.addAll(Chunks.of(group, ReplicaPacking::bytes, MAX_PACKED_BYTES, MAX_PARTITIONS));
    }
    return batches;
  }

  /**
   * What Cassandra counts as the part's size in a batch, about: every row's values, the key
   * columns included (time series id, buckets, event time and id, item key and value).
   */
  static long bytes(Part part) {
    long total = 0;
    int series = part.series().remaining();
    for (PlacedEvent e : part.events()) {
      int id = e.event().eventId().length() * 3;
      total += e.event().payloadBytes() + (long) e.event().items().size() * (series + id + 8 + 4 + 8);
    }
    return total;
  }
}
