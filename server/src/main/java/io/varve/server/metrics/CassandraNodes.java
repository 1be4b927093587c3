package io.varve.server.metrics;

import com.datastax.oss.driver.api.core.CqlSession;
import com.datastax.oss.driver.api.core.metadata.Node;
import com.datastax.oss.driver.api.core.metadata.NodeState;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import java.util.Locale;

/**
 * The Cassandra nodes the server's driver knows, by state: {@code varve_cassandra_nodes{state}},
 * {@code state} one of {@code up} (the driver holds connections to it), {@code down} (it lost them
 * and is reconnecting), {@code unknown} (not tried yet, or ignored by the load balancing) and
 * {@code forced_down}. No node {@code up} means the server cannot reach its cluster: every durable
 * write and read fails until one is. Read from the driver's metadata at each scrape.
 */
public final class CassandraNodes {

  private CassandraNodes() {}

  /** Registers one gauge per node state, counting {@code session}'s nodes in that state. */
  public static void register(MeterRegistry registry, CqlSession session) {
    for (NodeState state : NodeState.values()) {
      Gauge.builder("varve.cassandra.nodes", session, s -> count(s, state))
          .description("Cassandra nodes the server's driver knows, by state (up: connected)")
          .tag("state", state.name().toLowerCase(Locale.ROOT))
          .strongReference(true)
          .register(registry);
    }
  }

  private static long count(CqlSession session, NodeState state) {
    long n = 0;
    for (Node node : session.getMetadata().getNodes().values()) {
      if (node.getState() == state) {
        n++;
      }
    }
    return n;
  }
}
