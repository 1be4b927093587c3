package io.varve.server.kv;

import static org.assertj.core.api.Assertions.assertThat;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.varve.core.kv.ClusteringOrder;
import io.varve.core.kv.ItemPredicate;
import io.varve.core.kv.KeyRange;
import io.varve.core.kv.KvItem;
import io.varve.core.kv.KvNamespace;
import io.varve.core.namespace.Consistency;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * The point-read cache on its own, with a clock the test moves: what a reader relies on is that it
 * never serves what a write of this server changed, nor anything past the namespace's TTL, and
 * stays within its bytes.
 */
class PointReadCacheTest {

  static final int PAGE = 2 * 1024 * 1024;

  final AtomicLong nanos = new AtomicLong(1_000_000_000L);
  final SimpleMeterRegistry metrics = new SimpleMeterRegistry();
  final KvNamespace ns = namespace(Duration.ofSeconds(10));

  static KvNamespace namespace(Duration ttl) {
    return new KvNamespace(
        "cached", "ks", "t", ClusteringOrder.ASC, Consistency.DEFAULT, Optional.ofNullable(ttl));
  }

  PointReadCache cache(long maxBytes) {
    return new PointReadCache(maxBytes, metrics, nanos::get, Runnable::run);
  }

  static byte[] b(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  static ItemPredicate.Keys keys(String... keys) {
    return new ItemPredicate.Keys(List.of(keys).stream().map(PointReadCacheTest::b).toList());
  }

  static KvItem item(String key, String value) {
    return KvItem.of(b(key), b(value));
  }

  /** A read of {@code predicate} that found {@code items}, filled as the GetItems handler does. */
  static void read(PointReadCache cache, KvNamespace ns, ItemPredicate p, List<KvItem> items) {
    long version = cache.version(ns.namespace(), "r");
    cache.fill(ns, "r", p, items, version);
  }

  static List<String> values(Optional<List<KvItem>> found) {
    return found.orElseThrow().stream()
        .map(i -> new String(i.value(), StandardCharsets.UTF_8))
        .toList();
  }

  void advance(Duration by) {
    nanos.addAndGet(by.toNanos());
  }

  double counted(String name) {
    return metrics.counter("varve.kv.cache." + name).count();
  }

  @Test
  void a_point_read_is_served_with_its_absent_keys_until_the_namespaces_ttl_ends() {
    PointReadCache cache = cache(1 << 20);
    read(cache, ns, keys("a", "b", "c"), List.of(item("a", "1"), item("c", "3")));

    advance(Duration.ofSeconds(9));
    assertThat(values(cache.lookup(ns, "r", keys("a", "b", "c"), PAGE))).containsExactly("1", "3");
    assertThat(values(cache.lookup(ns, "r", keys("b"), PAGE))).as("an absence is cached").isEmpty();

    advance(Duration.ofSeconds(1));
    assertThat(cache.lookup(ns, "r", keys("a"), PAGE)).as("at the TTL").isEmpty();
    assertThat(counted("hits")).isEqualTo(2);
    assertThat(counted("misses")).isEqualTo(1);
  }

  @Test
  void a_key_never_read_makes_the_whole_lookup_a_miss() {
    PointReadCache cache = cache(1 << 20);
    read(cache, ns, keys("a"), List.of(item("a", "1")));

    assertThat(cache.lookup(ns, "r", keys("a", "b"), PAGE)).isEmpty();
    assertThat(cache.lookup(namespace(Duration.ofSeconds(10)), "other", keys("a"), PAGE))
        .as("another record")
        .isEmpty();
  }

  @Test
  void a_write_of_a_key_forgets_it_and_a_range_or_record_delete_forgets_the_whole_record() {
    PointReadCache cache = cache(1 << 20);
    read(cache, ns, keys("a", "b"), List.of(item("a", "1"), item("b", "2")));

    cache.invalidate(ns.namespace(), "r", keys("a"));
    assertThat(cache.lookup(ns, "r", keys("a"), PAGE)).isEmpty();
    assertThat(values(cache.lookup(ns, "r", keys("b"), PAGE))).containsExactly("2");

    cache.invalidate(ns.namespace(), "r", new ItemPredicate.Range(KeyRange.ALL));
    assertThat(cache.lookup(ns, "r", keys("b"), PAGE)).as("after a range delete").isEmpty();
    read(cache, ns, keys("b"), List.of());
    assertThat(values(cache.lookup(ns, "r", keys("b"), PAGE)))
        .as("a read after the delete fills again")
        .isEmpty();
  }

  @Test
  void a_read_that_raced_a_write_of_its_record_fills_nothing() {
    PointReadCache cache = cache(1 << 20);
    long before = cache.version(ns.namespace(), "r");
    // the read is in flight when a put of the record ends
    cache.invalidate(ns.namespace(), "r", keys("a"));
    cache.fill(ns, "r", keys("a"), List.of(item("a", "old")), before);

    assertThat(cache.lookup(ns, "r", keys("a"), PAGE)).isEmpty();
  }

  @Test
  void a_namespace_whose_ttl_was_lowered_is_not_served_entries_of_the_longer_one() {
    PointReadCache cache = cache(1 << 20);
    read(cache, ns, keys("a"), List.of(item("a", "1")));

    assertThat(cache.lookup(namespace(Duration.ofSeconds(5)), "r", keys("a"), PAGE)).isEmpty();
    assertThat(values(cache.lookup(namespace(Duration.ofSeconds(30)), "r", keys("a"), PAGE)))
        .as("a raised TTL keeps what was read")
        .containsExactly("1");
  }

  @Test
  void an_answer_larger_than_a_page_goes_to_the_reader_which_cuts_pages() {
    PointReadCache cache = cache(1 << 20);
    read(
        cache, ns, keys("a", "b"), List.of(item("a", "x".repeat(600)), item("b", "y".repeat(600))));

    assertThat(cache.lookup(ns, "r", keys("a", "b"), 1000)).isEmpty();
    assertThat(cache.lookup(ns, "r", keys("a"), 1000)).as("one item always fits").isPresent();
  }

  @Test
  void the_cache_stays_within_its_bytes_and_counts_its_evictions() {
    long max = 20 * (PointReadCache.ENTRY_OVERHEAD_BYTES + 1100);
    PointReadCache cache = cache(max);
    for (int i = 0; i < 100; i++) {
      String key = "k" + i;
      read(cache, ns, keys(key), List.of(item(key, "v".repeat(1000))));
    }

    assertThat(metrics.get("varve.kv.cache.bytes").gauge().value()).isBetween(1.0, (double) max);
    assertThat(counted("evictions")).isGreaterThanOrEqualTo(75);
  }

  @Test
  void only_keyed_reads_with_values_of_a_namespace_with_a_cache_entry_are_served() {
    PointReadCache cache = cache(1 << 20);

    assertThat(cache.serves(ns, keys("a"), true)).isTrue();
    assertThat(cache.serves(ns, keys("a"), false)).as("keys only").isFalse();
    assertThat(cache.serves(ns, new ItemPredicate.All(), true)).as("a whole record").isFalse();
    assertThat(cache.serves(namespace(null), keys("a"), true)).as("no CACHE entry").isFalse();
    assertThat(cache(0).serves(ns, keys("a"), true)).as("kv.cache.maxBytes 0").isFalse();
  }
}
