package io.varve.server.config;

import io.varve.core.error.InvalidFieldException;
import io.varve.core.kv.KvChunking;
import io.varve.core.kv.KvLimits;
import io.varve.options.EffectiveConfig;
import io.varve.options.Option;
import io.varve.options.OptionValues;
import io.varve.options.Options;
import io.varve.options.Section;
import io.varve.options.Types;
import java.time.Duration;

/**
 * The options of the {@code kv} section: the KeyValue service's token drift and fetch memory
 * bounds, the chunking of large values and the size of its point-read cache.
 */
public final class KvOptions {

  private static final KvLimits L = KvLimits.DEFAULT;
  private static final Options.Builder OPTIONS = Options.builder();

  public static final Section KV =
      OPTIONS.section("kv", "The KeyValue service ([key-value.md](key-value.md)).");
  public static final Section LIMITS =
      OPTIONS.section(
          "kv.limits",
          "Bounds of the KeyValue data plane: how far an idempotency token's `generation_time` may be from the"
              + " server's clock (a PutItems or DeleteItems outside is refused with `INVALID_ARGUMENT` naming"
              + " `idempotency_token.generation_time`) and the memory one GetItems fetch may hold.");
  public static final Option<Duration> MAX_TOKEN_AGE =
      OPTIONS
          .option("kv.limits.maxTokenAge", Types.duration())
          .defaultValue(L.maxTokenAge())
          .doc(
              "How far in the past a token's `generation_time` may be. Retries and hedges of a client fall well within"
                  + " it; an older mutation would be silently discarded by any newer write of the same items.");
  public static final Option<Duration> MAX_TOKEN_LEAD =
      OPTIONS
          .option("kv.limits.maxTokenLead", Types.duration())
          .defaultValue(L.maxTokenLead())
          .doc(
              "How far in the future a token's `generation_time` may be: the clock skew allowed between clients and"
                  + " servers. A mutation further ahead would shadow every write of its items until that time.");

  public static final Option<Integer> MAX_FETCH_BYTES =
      OPTIONS
          .option("kv.limits.maxFetchBytes", Types.bytes(4 * KvLimits.MIB, 1024 * KvLimits.MIB))
          .defaultValue(L.maxFetchBytes())
          .doc(
              "Bytes one CQL fetch of GetItems may hold, whatever the data: rows with values are asked for at most"
                  + " this divided by the largest row (value limit + key limit + 1 KiB of metadata) at a time, 127 by"
                  + " default, so one small record is one round trip. Both the Cassandra coordinator and this server"
                  + " hold a fetch in memory.");

  private static final KvChunking C = KvChunking.DEFAULT;

  public static final Section CHUNKS =
      OPTIONS.section(
          "kv.chunks",
          "Values too large for their row ([key-value.md](key-value.md#large-values)): stored in chunks in a table"
              + " beside the item table, written before the item row that commits them, and swept by a background"
              + " worker once no committed item refers to them.");
  public static final Option<Integer> CHUNK_THRESHOLD =
      OPTIONS
          .option("kv.chunks.threshold", Types.bytes(64 * KvLimits.KIB, 4 * KvLimits.MIB))
          .defaultValue(C.threshold())
          .doc(
              "Values larger than this, as sent, are stored in chunks; smaller ones stay in their row. Also the largest"
                  + " row GetItems fetches, so the bound of kv.limits.maxFetchBytes rows. At most 4 MiB:"
                  + " the keys and inline values of one PutItems (at most 4 MiB) are one batch.");
  public static final Option<Integer> CHUNK_SIZE =
      OPTIONS
          .option("kv.chunks.chunkSize", Types.bytes(64 * KvLimits.KIB, 4 * KvLimits.MIB))
          .defaultValue(C.chunkSize())
          .doc(
              "Bytes of one chunk (one Cassandra partition). 1 MiB keeps every cell at most the size of the largest"
                  + " inline value, far below Cassandra's mutation bound (half a commit log segment, 16 MiB by"
                  + " default).");
  public static final Option<Integer> MAX_VALUE_BYTES =
      OPTIONS
          .option(
              "kv.chunks.maxValueBytes",
              Types.bytes(KvLimits.MIB, KvChunking.MAX_VALUE_BYTES_LIMIT))
          .defaultValue(C.maxValueBytes())
          .doc(
              "The largest item value, as written (uncompressed), and the most bytes of chunked values one PutItems"
                  + " carries; larger is refused naming `items[i].value`. The gRPC and JSON request size limits of"
                  + " PutItems follow from it.");
  public static final Option<Integer> WRITE_CONCURRENCY =
      OPTIONS
          .option("kv.chunks.concurrency", Types.integer(1, 64))
          .defaultValue(C.writeConcurrency())
          .doc(
              "Chunks of one value written (PutItems), read (GetItems) or deleted (sweeper) at once. Writes also"
                  + " share cassandra.maxInFlightWrites and cassandra.maxInFlightWriteBytes with every other write.");
  public static final Option<Duration> SWEEP_INTERVAL =
      OPTIONS
          .option("kv.chunks.sweepInterval", Types.duration())
          .defaultValue(C.sweepInterval())
          .doc("Pause between two passes of the chunk sweeper.");
  public static final Option<Duration> GRACE =
      OPTIONS
          .option("kv.chunks.grace", Types.duration())
          .defaultValue(C.grace())
          .doc(
              "How long after a value was staged the sweeper leaves its chunks alone. Must exceed"
                  + " kv.limits.maxTokenAge (a swept version can then never be replayed); a PutItems whose chunks"
                  + " took more than half of it fails without committing.");
  public static final Option<Duration> RECHECK =
      OPTIONS
          .option("kv.chunks.recheck", Types.duration())
          .defaultValue(C.recheck())
          .doc(
              "When the sweeper finds a chunked value still committed, how long until it looks again (the chunks of"
                  + " a value replaced or deleted are removed at most this long after).");
  public static final Option<Integer> SWEEP_BATCH =
      OPTIONS
          .option("kv.chunks.sweepBatch", Types.integer(1, 10_000))
          .defaultValue(C.sweepBatch())
          .doc(
              "Staged values one sweeper pass examines per shard of the staging log (16 shards): the bound of a"
                  + " pass's work.");
  public static final Section CACHE =
      OPTIONS.section(
          "kv.cache",
          "The in-process cache of GetItems point reads (`match_keys` with values) of namespaces with a `CACHE`"
              + " entry ([key-value.md](key-value.md#cache)).");
  public static final Option<Integer> CACHE_MAX_BYTES =
      OPTIONS
          .option("kv.cache.maxBytes", Types.bytes(0, 1024 * KvLimits.MIB))
          .defaultValue((int) L.maxCacheBytes())
          .doc(
              "Bytes the cache may hold (keys, values and about 160 bytes per item), shared by every namespace;"
                  + " the least recently used items are evicted beyond it. 0 turns the cache off. Counted in"
                  + " the heap: keep it well under the server's `-Xmx`.");

  public static final Options ALL = OPTIONS.build();

  private KvOptions() {}

  static KvLimits limits(OptionValues v) {
    return L.withTokenDrift(v.get(MAX_TOKEN_AGE), v.get(MAX_TOKEN_LEAD))
        .withFetchBytes(v.get(MAX_FETCH_BYTES))
        .withValueBytes(v.get(CHUNK_THRESHOLD))
        .withCacheBytes(v.get(CACHE_MAX_BYTES));
  }

  static KvChunking chunking(OptionValues v) {
    KvChunking c =
        new KvChunking(
            v.get(CHUNK_THRESHOLD),
            v.get(CHUNK_SIZE),
            v.get(MAX_VALUE_BYTES),
            v.get(WRITE_CONCURRENCY),
            v.get(SWEEP_INTERVAL),
            v.get(GRACE),
            v.get(RECHECK),
            v.get(SWEEP_BATCH));
    if (c.maxValueBytes() < c.threshold()) {
      throw new InvalidFieldException(
          v.key(MAX_VALUE_BYTES),
          c.maxValueBytes(),
          "at least kv.chunks.threshold (" + c.threshold() + ")");
    }
    if (c.grace().compareTo(v.get(MAX_TOKEN_AGE)) <= 0) {
      throw new InvalidFieldException(
          v.key(GRACE),
          c.grace(),
          "more than kv.limits.maxTokenAge (" + v.get(MAX_TOKEN_AGE) + ")");
    }
    if (c.sweepInterval().isNegative() || c.sweepInterval().isZero()) {
      throw new InvalidFieldException(v.key(SWEEP_INTERVAL), c.sweepInterval(), "positive");
    }
    return c;
  }

  static void effective(KvChunking c, EffectiveConfig config) {
    config
        .put(CHUNK_THRESHOLD, c.threshold())
        .put(CHUNK_SIZE, c.chunkSize())
        .put(MAX_VALUE_BYTES, c.maxValueBytes())
        .put(WRITE_CONCURRENCY, c.writeConcurrency())
        .put(SWEEP_INTERVAL, c.sweepInterval())
        .put(GRACE, c.grace())
        .put(RECHECK, c.recheck())
        .put(SWEEP_BATCH, c.sweepBatch());
  }

  static void effective(KvLimits l, EffectiveConfig config) {
    config
        .put(MAX_TOKEN_AGE, l.maxTokenAge())
        .put(MAX_TOKEN_LEAD, l.maxTokenLead())
        .put(MAX_FETCH_BYTES, l.maxFetchBytes())
        .put(CACHE_MAX_BYTES, (int) l.maxCacheBytes());
  }
}
