package io.varve.server.metrics;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.varve.cassandra.session.ClusterSessions;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The Cassandra nodes the server's driver knows, by cluster and state: {@code
 * varve_cassandra_nodes{cluster, state}}, {@code cluster} {@code default} for the cluster of {@code
 * cassandra.contactPoints} and the name of each cluster of {@code cassandra.clusters}, {@code
 * state} one of {@code up} (the driver holds connections to it), {@code down} (it lost them and is
 * reconnecting), {@code unknown} (not tried yet, or ignored by the load balancing) and {@code
 * forced_down}. No node {@code up} means the server cannot reach that cluster: every durable write
 * and read of its namespaces fails until one is (a cluster whose session is not open yet counts no
 * node at all). Read from the driver's metadata at each scrape.
 */
public final class CassandraNodes {

  private CassandraNodes() {}

  /** Registers one gauge per cluster and node state, counting the cluster's nodes in that state. */
  public static void register(MeterRegistry registry, ClusterSessions sessions) {
    List<String> clusters = new ArrayList<>();
    clusters.add(ClusterSessions.DEFAULT);
    clusters.addAll(sessions.names());
    for (String cluster : clusters) {
      for (NodeState state : NodeState.values()) {
        Gauge.builder("varve.cassandra.nodes", sessions, s -> count(s.opened(cluster), state))
            .description(
                "Cassandra nodes the server's driver knows, by cluster and state (up: connected)")
            .tag("cluster", cluster.isEmpty() ? ClusterSessions.DEFAULT_NAME : cluster)
            .tag("state", state.name().toLowerCase(Locale.ROOT))
            .strongReference(true)
            .register(registry);
      }
    }
  }

  private static long count(Optional<CqlSession> session, NodeState state) {
    if (session.isEmpty()) {
      return 0;
    }
    long n = 0;
    for (Node node : session.get().getMetadata().getNodes().values()) {
      if (node.getState() == state) {
        n++;
      }
    }
    return n;
  }
}
