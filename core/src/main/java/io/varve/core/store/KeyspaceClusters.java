package io.varve.core.store;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Which cluster holds each keyspace, by the cluster's name in {@code cassandra.clusters}: what the
 * namespaces living in a keyspace name in {@code physicalStorage.cluster}. A keyspace no namespace
 * names (the metadata keyspace among them) is on the default cluster.
 *
 * <p>Told by the namespace registry of every namespace it loads, and by CreateNamespace before it
 * creates anything. Entries are replaced, never removed: a keyspace whose namespaces were deleted
 * keeps routing where its tables were until a namespace created in it says otherwise. Thread-safe.
 */
public final class KeyspaceClusters {

  /** The name of the default cluster, as namespaces give it (empty). */
  public static final String DEFAULT = "";

  private final ConcurrentMap<String, String> clusters = new ConcurrentHashMap<>();

  /** The cluster holding {@code keyspace}; {@link #DEFAULT} when none was assigned. */
  public String cluster(String keyspace) {
    return clusters.getOrDefault(keyspace, DEFAULT);
  }

  /** The cluster {@code keyspace} was assigned to; empty when no namespace has told it yet. */
  public java.util.Optional<String> assigned(String keyspace) {
    return java.util.Optional.ofNullable(clusters.get(keyspace));
  }

  /** Records that {@code keyspace} lives on {@code cluster} ({@link #DEFAULT}: the default one). */
  public void assign(String keyspace, String cluster) {
    clusters.put(keyspace, cluster);
  }
}
