package io.varve.core.kv;

import io.varve.core.namespace.Consistency;
import io.varve.core.slo.Slos;
import java.time.Duration;
import java.util.Optional;

/**
 * The effective settings of a KeyValue namespace, validated and with defaults filled in.
 *
 * @param namespace the namespace name
 * @param keyspace the keyspace of its table ({@code physical_storage.dataset})
 * @param table the table holding its records ({@code physical_storage.table})
 * @param order the clustering order of items by key
 * @param consistency read and write consistency
 * @param cacheTtl the CACHE entry's {@code default_cache_ttl}, when the namespace has one
 * @param slos the latency objectives of its endpoints ({@link KvSlos}), defaults filled in
 */
public record KvNamespace(
    String namespace,
    String keyspace,
    String table,
    ClusteringOrder order,
    Consistency consistency,
    Optional<Duration> cacheTtl,
    Slos slos) {

  public static final Duration DEFAULT_CACHE_TTL = Duration.ofSeconds(180);
  public static final Duration MIN_CACHE_TTL = Duration.ofSeconds(1);
  public static final Duration MAX_CACHE_TTL = Duration.ofHours(1);

  /** A namespace with the default objectives. */
  public KvNamespace(
      String namespace,
      String keyspace,
      String table,
      ClusteringOrder order,
      Consistency consistency,
      Optional<Duration> cacheTtl) {
    this(namespace, keyspace, table, order, consistency, cacheTtl, Slos.defaults(KvSlos.CATALOG));
  }
}
