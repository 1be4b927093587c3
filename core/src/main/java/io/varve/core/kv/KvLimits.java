package io.varve.core.kv;

import java.time.Duration;

/**
 * Size, count and clock-drift limits of the KeyValue data plane, checked before any work. The
 * defaults are documented in docs/limits.md; {@code maxTokenAge} and {@code maxTokenLead} are
 * server options ({@code kv.limits.*}).
 *
 * @param maxIdBytes UTF-8 bytes of a record id
 * @param maxKeyBytes bytes of one item key
 * @param maxValueBytes bytes of a value stored in its item row: the chunking threshold ({@link
 *     KvChunking#threshold()}); larger values go to the chunk table
 * @param maxItemsPerRequest items in one PutItems
 * @param maxRequestBytes keys plus values of one PutItems
 * @param maxMatchKeys keys in one {@code match_keys}
 * @param defaultPageSizeBytes page size of a GetItems that gives none
 * @param maxPageSizeBytes largest {@code page_size_bytes}
 * @param maxTokenAge how far before the server's clock a token's generation time may be
 * @param maxTokenLead how far after the server's clock a token's generation time may be
 * @param maxFetchBytes bytes one CQL fetch of GetItems may hold at most, whatever the data: the
 *     rows asked for at once times the largest row ({@link #maxRowBytes()})
 * @param maxCacheBytes bytes the point-read cache of namespaces with a CACHE entry may hold; 0
 *     turns it off
 */
public record KvLimits(
    int maxIdBytes,
    int maxKeyBytes,
    int maxValueBytes,
    int maxItemsPerRequest,
    int maxRequestBytes,
    int maxMatchKeys,
    int defaultPageSizeBytes,
    int maxPageSizeBytes,
    Duration maxTokenAge,
    Duration maxTokenLead,
    int maxFetchBytes,
    long maxCacheBytes) {

  public static final int KIB = 1024;
  public static final int MIB = 1024 * KIB;

  /** The default chunking threshold: values above it are stored in chunks ({@link KvChunking}). */
  public static final int CHUNK_THRESHOLD = MIB;

  /** Largest token nonce, in characters. */
  public static final int MAX_TOKEN_CHARS = 128;

  /**
   * Bound of an encoded {@code value_metadata}: a nonce of {@value #MAX_TOKEN_CHARS} characters (4
   * UTF-8 bytes each at most) and a few varints.
   */
  public static final int MAX_METADATA_BYTES = KIB;

  /**
   * The defaults. Token age: a client retries or hedges within its deadline and retry budget,
   * minutes at most; an older write is most likely a stale replay whose silent loss to a newer
   * value would surprise. Token lead: clocks of hosts kept by NTP agree within milliseconds; a
   * write seconds in the future would shadow every write until that time (the immutable
   * "doomstone").
   */
  public static final KvLimits DEFAULT =
      new KvLimits(
          1024,
          4 * KIB,
          CHUNK_THRESHOLD,
          1000,
          4 * MIB,
          1000,
          2 * MIB,
          16 * MIB,
          Duration.ofMinutes(10),
          Duration.ofSeconds(10),
          128 * MIB,
          64L * MIB);

  public KvLimits withTokenDrift(Duration age, Duration lead) {
    return new KvLimits(
        maxIdBytes,
        maxKeyBytes,
        maxValueBytes,
        maxItemsPerRequest,
        maxRequestBytes,
        maxMatchKeys,
        defaultPageSizeBytes,
        maxPageSizeBytes,
        age,
        lead,
        maxFetchBytes,
        maxCacheBytes);
  }

  /** These limits with values of at most {@code bytes} in their row (the chunking threshold). */
  public KvLimits withValueBytes(int bytes) {
    return new KvLimits(
        maxIdBytes,
        maxKeyBytes,
        bytes,
        maxItemsPerRequest,
        maxRequestBytes,
        maxMatchKeys,
        defaultPageSizeBytes,
        maxPageSizeBytes,
        maxTokenAge,
        maxTokenLead,
        maxFetchBytes,
        maxCacheBytes);
  }

  public KvLimits withFetchBytes(int bytes) {
    return new KvLimits(
        maxIdBytes,
        maxKeyBytes,
        maxValueBytes,
        maxItemsPerRequest,
        maxRequestBytes,
        maxMatchKeys,
        defaultPageSizeBytes,
        maxPageSizeBytes,
        maxTokenAge,
        maxTokenLead,
        bytes,
        maxCacheBytes);
  }

  public KvLimits withCacheBytes(long bytes) {
    return new KvLimits(
        maxIdBytes,
        maxKeyBytes,
        maxValueBytes,
        maxItemsPerRequest,
        maxRequestBytes,
        maxMatchKeys,
        defaultPageSizeBytes,
        maxPageSizeBytes,
        maxTokenAge,
        maxTokenLead,
        maxFetchBytes,
        bytes);
  }

  /**
   * The largest row an item table holds: a key, an inline value and its metadata, at their limits;
   * the metadata twice, as the value cell starts with it too.
   */
  public long maxRowBytes() {
    return (long) maxKeyBytes + maxValueBytes + 2L * MAX_METADATA_BYTES;
  }

  /**
   * Rows with values one fetch may ask for: {@code maxFetchBytes} of rows of the largest size (at
   * least 2).
   */
  public int valueRowsPerFetch() {
    return (int) Math.max(FetchSizes.MIN, maxFetchBytes / maxRowBytes());
  }

  /**
   * Rows without values (keys and metadata) one fetch may ask for, at most {@link FetchSizes#MAX}.
   */
  public int keyRowsPerFetch() {
    return (int)
        Math.max(
            FetchSizes.MIN,
            Math.min(FetchSizes.MAX, maxFetchBytes / (maxKeyBytes + MAX_METADATA_BYTES)));
  }
}
