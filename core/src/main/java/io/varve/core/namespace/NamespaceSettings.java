package io.varve.core.namespace;

import io.varve.core.partitioning.TimePartition;
import io.varve.core.slo.Slos;
import java.time.Duration;

/**
 * The effective settings of a namespace's primary storage, validated and with defaults filled in.
 *
 * @param namespace the namespace name
 * @param keyspace the keyspace holding its slice tables ({@code physical_storage.dataset})
 * @param partition partition settings for slices created from now on
 * @param consistency read/write consistency
 * @param acceptLimit how far back from now writes are accepted
 * @param retention when slices close and are dropped
 * @param coalesce how long fire-and-forget writes may wait to be batched
 * @param bufferCapacityBytes capacity of the fire-and-forget queue
 * @param drainRate events per second each server writes from the fire-and-forget queue; 0: as fast
 *     as the store takes them
 * @param slos latency objectives of every endpoint of {@link TimeSeriesSlos#CATALOG}
 * @param compaction how its slice tables are compacted, open and closed
 * @param autoPartition whether the control plane sets {@code partition}'s time bucket width and
 *     event buckets for future slices from the partition histograms ({@code timePartition.auto})
 */
public record NamespaceSettings(
    String namespace,
    String keyspace,
    TimePartition partition,
    Consistency consistency,
    Duration acceptLimit,
    Retention retention,
    Duration coalesce,
    long bufferCapacityBytes,
    long drainRate,
    Slos slos,
    io.varve.core.partitioning.CompactionPolicy compaction,
    boolean autoPartition) {

  /** Settings whose partitioning only an operator changes. */
  public NamespaceSettings(
      String namespace,
      String keyspace,
      TimePartition partition,
      Consistency consistency,
      Duration acceptLimit,
      Retention retention,
      Duration coalesce,
      long bufferCapacityBytes,
      long drainRate,
      Slos slos,
      io.varve.core.partitioning.CompactionPolicy compaction) {
    this(
        namespace,
        keyspace,
        partition,
        consistency,
        acceptLimit,
        retention,
        coalesce,
        bufferCapacityBytes,
        drainRate,
        slos,
        compaction,
        false);
  }

  /** Default accept limit: writes up to 36 hours old. */
  public static final Duration DEFAULT_ACCEPT_LIMIT = Duration.ofHours(36);

  public static final Duration DEFAULT_COALESCE = Duration.ofSeconds(1);
  public static final long DEFAULT_BUFFER_CAPACITY = 4L * 1024 * 1024;
}
