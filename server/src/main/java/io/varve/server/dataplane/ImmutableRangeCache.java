package io.varve.server.dataplane;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.api.timeseries.v1.ReadEventRecordsRequest;
import io.varve.api.timeseries.v1.ReadEventRecordsResponse;
import io.varve.core.partitioning.TimeSlice;
import io.varve.server.config.ReadCacheSettings;
import io.varve.server.controlplane.NamespaceEntry;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

/**
 * ReadEventRecords pages of ranges that can no longer change, kept in memory bounded in bytes
 * ({@code timeseries.readCache}): the reference's "caching immutable ranges".
 *
 * <p>A range can no longer change once its end is older than the namespace's accept limit, which
 * refuses every write before it, plus a safety margin that covers what a write accepted just inside
 * the window may still take to land (a durable write's request timeout, a fire-and-forget event's
 * coalescing and retries) and the clocks of servers that disagree. A page is cached only then, and
 * only whole (a page cut short by the latency objective is not).
 *
 * <p>What else may change an answer is in its key, so that no entry is invalidated, only left to
 * age out: the namespace's creation time and version (an UpdateNamespace, a retention or accept
 * limit changed, a namespace deleted and created again) and the table and status of every slice the
 * range overlaps (retention closing, reopening or dropping one). The request itself is in it whole,
 * page token included. Thread-safe.
 */
public final class ImmutableRangeCache {

  /** The answer of a request, given the namespace and the slices it reads. */
  public record Key(
      String namespace, Instant created, long version, String slices, ByteBuffer request) {}

  private record Entry(ReadEventRecordsResponse response, int weight) {}

  /** Per-entry overhead beyond the response's bytes: key, objects, the cache's own node. */
  private static final int OVERHEAD = 256;

  private final Cache<Key, Entry> cache;
  private final Duration safetyMargin;
  private final Counter hits;
  private final Counter misses;
  private final Counter evictions;

  public ImmutableRangeCache(ReadCacheSettings settings, MeterRegistry metrics) {
    this.safetyMargin = settings.safetyMargin();
    this.hits =
        counter(
            metrics, "hits", "ReadEventRecords pages of immutable ranges answered from the cache");
    this.misses =
        counter(
            metrics, "misses", "ReadEventRecords pages of immutable ranges read from Cassandra");
    this.evictions =
        counter(metrics, "evictions", "Cached pages evicted to keep the cache within its bytes");
    this.cache =
        settings.maxBytes() == 0
            ? null
            : Caffeine.newBuilder()
                .maximumWeight(settings.maxBytes())
                .weigher((Key k, Entry e) -> e.weight())
                .evictionListener(
                    (Key k, Entry e, RemovalCause cause) -> {
                      if (cause == RemovalCause.SIZE) {
                        evictions.increment();
                      }
                    })
                .build();
    Gauge.builder(
            "varve.timeseries.read.cache.bytes",
            this,
            c ->
                c.cache == null
                    ? 0
                    : c.cache.policy().eviction().orElseThrow().weightedSize().orElse(0))
        .baseUnit("bytes")
        .description("Bytes the cache of immutable ranges holds (pages and per-entry overhead)")
        .register(metrics);
  }

  private static Counter counter(MeterRegistry metrics, String name, String description) {
    return Counter.builder("varve.timeseries.read.cache." + name)
        .description(description)
        .register(metrics);
  }

  /** A page's place in the cache, when its range can no longer change at {@code now}. */
  public Optional<Key> key(
      NamespaceEntry ns,
      ReadEventRecordsRequest request,
      long fromMillis,
      long toMillis,
      Instant now) {
    if (cache == null) {
      return Optional.empty();
    }
    Instant frozen = now.minus(ns.settings().acceptLimit()).minus(safetyMargin);
    if (toMillis > frozen.toEpochMilli()) {
      return Optional.empty();
    }
    StringBuilder slices = new StringBuilder();
    for (TimeSlice slice : ns.slices()) {
      if (slice.overlaps(fromMillis, toMillis)) {
        slices.append(slice.table()).append(':').append(slice.status()).append(';');
      }
    }
    return Optional.of(
        new Key(
            ns.record().namespace(),
            ns.record().createTime(),
            ns.record().version(),
            slices.toString(),
            ByteBuffer.wrap(request.toByteArray())));
  }

  /** The cached page of {@code key}, counting a hit or a miss. */
  public Optional<ReadEventRecordsResponse> get(Key key) {
    Entry e = cache.getIfPresent(key);
    if (e == null) {
      misses.increment();
      return Optional.empty();
    }
    hits.increment();
    return Optional.of(e.response());
  }

  /** Keeps a whole page of an immutable range. */
  public void put(Key key, ReadEventRecordsResponse response) {
    if (response.getPartial()) {
      return; // cut short by time: another read may find more
    }
    long weight = (long) response.getSerializedSize() + key.request().capacity() + OVERHEAD;
    cache.put(key, new Entry(response, (int) Math.min(Integer.MAX_VALUE, weight)));
  }
}
