package io.varve.server.config;

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
 * bounds, and the size of its point-read cache.
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
        .withCacheBytes(v.get(CACHE_MAX_BYTES));
  }

  static void effective(KvLimits l, EffectiveConfig config) {
    config
        .put(MAX_TOKEN_AGE, l.maxTokenAge())
        .put(MAX_TOKEN_LEAD, l.maxTokenLead())
        .put(MAX_FETCH_BYTES, l.maxFetchBytes())
        .put(CACHE_MAX_BYTES, (int) l.maxCacheBytes());
  }
}
