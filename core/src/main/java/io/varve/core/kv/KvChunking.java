package io.varve.core.kv;

import java.time.Duration;

/**
 * How values larger than a row should hold are stored: split into chunks of a separate table,
 * written before the item row that commits them, and swept when no committed item refers to them
 * any more. Server options {@code kv.chunks.*}; defaults and reasons in docs/key-value.md ("Large
 * values").
 *
 * @param threshold stored values (after compression) above this many bytes are chunked; at or
 *     below, they stay in the item row. Also the largest inline value, so the bound of a row that
 *     GetItems fetches ({@link KvLimits#maxValueBytes()} is set to it)
 * @param chunkSize bytes of one chunk (the last one may be shorter)
 * @param maxValueBytes the largest item value a client may write, as written (before compression)
 * @param writeConcurrency chunks one PutItems writes at once
 * @param sweepInterval pause between two passes of the chunk sweeper
 * @param grace how long after staging a value's chunks are left alone: a write commits well within
 *     it or fails, and a token older than it can no longer be replayed (it must exceed {@code
 *     kv.limits.maxTokenAge})
 * @param recheck when the sweeper finds a chunked value still current, how long until it looks at
 *     it again
 * @param sweepBatch staged values one pass examines per shard of the staging log, at most
 */
public record KvChunking(
    int threshold,
    int chunkSize,
    int maxValueBytes,
    int writeConcurrency,
    Duration sweepInterval,
    Duration grace,
    Duration recheck,
    int sweepBatch) {

  /**
   * The defaults. Chunks of 1 MiB, the threshold itself: every cell the service writes, inline
   * value or chunk, stays at 1 MiB or less, far below the mutation bound of Cassandra (half a
   * commit log segment, 16 MiB by default) and within the cell size Cassandra operators consider
   * safe for compaction, repair and streaming; a 64 MiB value is 64 partitions spread over the
   * ring. Four chunks in flight per request: a large value goes at about four times the speed of
   * one round trip without one request taking the whole shared write budget. The grace of 15
   * minutes exceeds the default token age (10 minutes).
   */
  public static final KvChunking DEFAULT =
      new KvChunking(
          KvLimits.MIB,
          KvLimits.MIB,
          64 * KvLimits.MIB,
          4,
          Duration.ofSeconds(30),
          Duration.ofMinutes(15),
          Duration.ofHours(1),
          500);

  /**
   * The most {@code kv.chunks.maxValueBytes} may be: no server writes a larger value, so a reader
   * refuses metadata that claims one (a corrupt row must not take gigabytes of memory).
   */
  public static final int MAX_VALUE_BYTES_LIMIT = 256 * KvLimits.MIB;

  /**
   * The smallest part a client may stage in the chunked protocol, in effect: a value has at most
   * {@link #maxParts()} parts, so parts of {@code maxValueBytes} are at least this large on
   * average.
   */
  public static final int MIN_PART_BYTES = 64 * KvLimits.KIB;

  /**
   * The most parts one value staged by a client may have ({@code Item.chunk} below it): {@code
   * maxValueBytes / 64 KiB}, 1024 by default. Bounds the rows one commit reads and the chunks the
   * sweeper removes for one abandoned staging.
   */
  public int maxParts() {
    return Math.max(1, maxValueBytes / MIN_PART_BYTES);
  }

  /** Chunks of a stored value of {@code storedBytes}. */
  public int chunkCount(long storedBytes) {
    return (int) ((storedBytes + chunkSize - 1) / chunkSize);
  }

  /** Whether a stored value of {@code storedBytes} goes to chunks rather than into its row. */
  public boolean chunked(long storedBytes) {
    return storedBytes > threshold;
  }
}
