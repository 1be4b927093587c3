package io.varve.server.kv;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.Expiry;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.github.benmanes.caffeine.cache.Ticker;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The in-process cache of point reads (GetItems by {@code match_keys}, with values) of namespaces
 * with a CACHE entry: per item, its value or its absence, for the namespace's {@code
 * default_cache_ttl}, bounded in bytes. Thread-safe.
 *
 * <p>Coherence: this server's writes invalidate what they touch ({@link #invalidate}) before they
 * answer, so a client reading through the server it wrote through reads its writes. Another
 * server's cache is not told: it serves its copy until the TTL ends. A read that raced a write
 * never fills the cache: every write bumps a version of its record's stripe, and a read fills only
 * when the version is the one it saw before reading (checked again after filling).
 */
final class PointReadCache {

  /** Bytes counted per entry beyond its key and value: the key object, entry and map overhead. */
  static final int ENTRY_OVERHEAD_BYTES = 160;

  private static final int STRIPES = 4096;

  private record Key(String namespace, String id, ByteBuffer key) {}

  /** An item or its absence ({@code item} null), with the record stripe's wipe count when read. */
  private record Entry(KvItem item, Duration ttl, long wipes, long weight) {}

  private final Cache<Key, Entry> cache;
  private final AtomicLongArray writes = new AtomicLongArray(STRIPES);
  private final AtomicLongArray wipes = new AtomicLongArray(STRIPES);

  /**
   * Namespaces something was ever cached for: a write of any other needs no invalidation (most
   * namespaces have no cache, and their every write would otherwise look up each key it wrote). A
   * fill adds its namespace before caching and reads the write version after; a write bumps the
   * version before it reads this set: one of the two always sees the other.
   */
  private final Set<String> filledNamespaces = ConcurrentHashMap.newKeySet();

  private final Counter hits;
  private final Counter misses;
  private final Counter evictions;

  /** A cache of at most {@code maxBytes}; 0 turns it off for every namespace. */
  PointReadCache(long maxBytes, MeterRegistry metrics) {
    this(maxBytes, metrics, Ticker.systemTicker(), ForkJoinPool.commonPool());
  }

  /**
   * As above; {@code ticker}: the clock of the TTLs, {@code maintenance}: where Caffeine evicts and
   * notifies (a test passes its own clock and {@code Runnable::run}).
   */
  PointReadCache(long maxBytes, MeterRegistry metrics, Ticker ticker, Executor maintenance) {
    this.hits = counter(metrics, "hits", "GetItems point reads answered from the cache");
    this.misses =
        counter(
            metrics, "misses", "GetItems point reads of a cached namespace read from Cassandra");
    this.evictions =
        counter(metrics, "evictions", "Cached items evicted to keep the cache within its bytes");
    this.cache =
        maxBytes == 0
            ? null
            : Caffeine.newBuilder()
                .ticker(ticker)
                .executor(maintenance)
                .maximumWeight(maxBytes)
                .weigher((Key k, Entry e) -> (int) Math.min(Integer.MAX_VALUE, e.weight()))
                .expireAfter(new TtlExpiry())
                .evictionListener(
                    (Key k, Entry e, RemovalCause cause) -> {
                      if (cause == RemovalCause.SIZE) {
                        evictions.increment();
                      }
                    })
                .build();
    Gauge.builder(
            "varve.kv.cache.bytes",
            this,
            c ->
                c.cache == null
                    ? 0
                    : c.cache.policy().eviction().orElseThrow().weightedSize().orElse(0))
        .baseUnit("bytes")
        .description("Bytes the point-read cache holds (keys, values and per-entry overhead)")
        .register(metrics);
  }

  /** Whether a read of {@code ns} by {@code predicate} may use the cache. */
  boolean serves(KvNamespace ns, ItemPredicate predicate, boolean values) {
    return cache != null
        && ns.cacheTtl().isPresent()
        && values
        && predicate instanceof ItemPredicate.Keys;
  }

  /**
   * The items of {@code predicate}'s keys (those present, in its order) when every key is cached,
   * within the namespace's current TTL and not wiped since, and they fit one page of {@code
   * pageSize} bytes; empty (a miss) otherwise.
   */
  Optional<List<KvItem>> lookup(KvNamespace ns, String id, ItemPredicate predicate, int pageSize) {
    List<byte[]> keys = ((ItemPredicate.Keys) predicate).keys();
    long wiped = wipes.get(stripe(ns.namespace(), id));
    List<KvItem> found = new ArrayList<>(keys.size());
    long bytes = 0;
    for (byte[] key : keys) {
      Entry e = cache.getIfPresent(new Key(ns.namespace(), id, ByteBuffer.wrap(key)));
      if (e == null || e.wipes() != wiped || e.ttl().compareTo(ns.cacheTtl().orElseThrow()) > 0) {
        misses.increment();
        return Optional.empty();
      }
      if (e.item() != null) {
        found.add(e.item());
        bytes += e.item().key().length + e.item().value().length;
      }
    }
    if (bytes > pageSize && found.size() > 1) {
      misses.increment(); // the answer takes pages: the reader cuts them
      return Optional.empty();
    }
    hits.increment();
    return Optional.of(found);
  }

  /** What a read must pass to {@link #fill}: the record stripe's write version before reading. */
  long version(String namespace, String id) {
    return writes.get(stripe(namespace, id));
  }

  /**
   * Caches the complete answer {@code items} to a read of {@code predicate}'s keys that started at
   * {@code version}, unless a write of the record's stripe happened since.
   */
  void fill(KvNamespace ns, String id, ItemPredicate predicate, List<KvItem> items, long version) {
    List<byte[]> keys = ((ItemPredicate.Keys) predicate).keys();
    int stripe = stripe(ns.namespace(), id);
    if (writes.get(stripe) != version) {
      return;
    }
    filledNamespaces.add(ns.namespace());
    Duration ttl = ns.cacheTtl().orElseThrow();
    long wiped = wipes.get(stripe);
    List<Key> filled = new ArrayList<>(keys.size());
    int next = 0;
    for (byte[] key : keys) {
      KvItem item = null;
      if (next < items.size()
          && ByteBuffer.wrap(items.get(next).key()).equals(ByteBuffer.wrap(key))) {
        item = items.get(next++);
      }
      Key k = new Key(ns.namespace(), id, ByteBuffer.wrap(key));
      long weight =
          key.length
              + (item == null ? 0 : item.value().length)
              + id.length()
              + ENTRY_OVERHEAD_BYTES;
      cache.put(k, new Entry(item, ttl, wiped, weight));
      filled.add(k);
    }
    if (writes.get(stripe) != version) {
      cache.invalidateAll(filled); // a write landed while filling: what was filled may be stale
    }
  }

  /**
   * Forgets what a mutation of {@code id} matching {@code predicate} may have changed; called by
   * every mutating RPC (PutItems, DeleteItems, MutateItems) once its write is done, before it
   * answers, whether the write succeeded or not (a failed write may have applied).
   */
  void invalidate(String namespace, String id, ItemPredicate predicate) {
    if (cache == null) {
      return;
    }
    int stripe = stripe(namespace, id);
    writes.incrementAndGet(stripe);
    if (!filledNamespaces.contains(namespace)) {
      return;
    }
    if (predicate instanceof ItemPredicate.Keys keys) {
      cache.invalidateAll(
          keys.keys().stream().map(k -> new Key(namespace, id, ByteBuffer.wrap(k))).toList());
    } else {
      wipes.incrementAndGet(stripe); // every item of the record's stripe is stale from now on
    }
  }

  /** Forgets every item of a namespace: it was deleted (and may be created again by that name). */
  void forget(String namespace) {
    if (cache != null) {
      cache.asMap().keySet().removeIf(k -> k.namespace().equals(namespace));
    }
  }

  /** {@code write}, invalidating what it touches once it ends, before its caller sees the end. */
  <T> CompletionStage<T> invalidating(
      KvNamespace ns, String id, ItemPredicate predicate, CompletionStage<T> write) {
    return write.whenComplete((v, e) -> invalidate(ns.namespace(), id, predicate));
  }

  private static int stripe(String namespace, String id) {
    return (31 * namespace.hashCode() + id.hashCode()) & (STRIPES - 1);
  }

  private static Counter counter(MeterRegistry metrics, String name, String description) {
    return Counter.builder("varve.kv.cache." + name).description(description).register(metrics);
  }

  /** Each entry lives for the TTL its namespace had when it was read. */
  private static final class TtlExpiry implements Expiry<Key, Entry> {
    @Override
    public long expireAfterCreate(Key key, Entry entry, long currentTime) {
      return entry.ttl().toNanos();
    }

    @Override
    public long expireAfterUpdate(Key key, Entry entry, long currentTime, long currentDuration) {
      return entry.ttl().toNanos();
    }

    @Override
    public long expireAfterRead(Key key, Entry entry, long currentTime, long currentDuration) {
      return currentDuration;
    }
  }
}
