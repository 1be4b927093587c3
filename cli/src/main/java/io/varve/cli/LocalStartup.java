package io.varve.cli;

import io.varve.local.LocalServerException;
import io.varve.local.Product;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.opensearch.LocalOpenSearch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The local servers that {@code varve up} starts before the Varve server, in order, and their
 * start: OpenSearch first, as it fails at once when no JDK 21+ is found, before Cassandra is
 * launched; then Cassandra, the single node or the nodes of a cluster, node 1 (the seed) first.
 *
 * <p>Everything is launched without waiting, except that a node of a cluster must answer CQL before
 * the next one is launched (Cassandra lets one node join a ring at a time); then every server is
 * awaited until ready. A secure node of a cluster is ready once its role logs in, which needs a
 * quorum of the nodes once the roles are replicated, so readiness is awaited only when all nodes
 * run. Then a cluster's nodes are awaited until each holds every other alive in its gossip ({@link
 * LocalCassandraCluster#awaitAgreement}). Last, on a secure cluster, the roles are replicated to
 * the nodes ({@link LocalCassandraCluster#replicateAuthentication}).
 */
final class LocalStartup {

  private static final Duration AUTH_REPAIR_TIMEOUT = Duration.ofMinutes(3);
  private static final Duration AGREEMENT_TIMEOUT = Duration.ofMinutes(1);

  private final LocalCassandraCluster cassandra;
  private final List<LocalNode> nodes;

  private LocalStartup(LocalCassandraCluster cassandra, List<LocalNode> nodes) {
    this.cassandra = cassandra;
    this.nodes = List.copyOf(nodes);
  }

  /** OpenSearch, if given, then the nodes of {@code cassandra}. */
  static LocalStartup of(LocalCassandraCluster cassandra, Optional<LocalOpenSearch> opensearch) {
    List<LocalNode> nodes = new ArrayList<>();
    opensearch.ifPresent(node -> nodes.add(LocalNode.opensearch(node)));
    List<LocalCassandra> cluster = cassandra.nodes();
    if (cluster.size() == 1) {
      nodes.add(LocalNode.cassandra(cluster.get(0)));
    } else {
      for (int n = 1; n <= cluster.size(); n++) {
        nodes.add(LocalNode.clusterNode(cluster.get(n - 1), n));
      }
    }
    return new LocalStartup(cassandra, nodes);
  }

  /** The servers, in the order they are launched. */
  List<LocalNode> nodes() {
    return nodes;
  }

  /**
   * Starts the servers that do not run and waits until all are ready, printing a line for each
   * step.
   *
   * @throws IllegalStateException if OpenSearch cannot start, saying how to run without it
   * @throws LocalServerException if Cassandra cannot start, quoting its log
   */
  void run() {
    try {
      for (LocalNode node : nodes) {
        System.out.println(node.name() + ": starting (data in " + node.home() + ")");
        node.start();
        if (joinsCluster(node)) {
          node.awaitStarted();
          System.out.println(node.name() + ": answers at " + node.address());
        }
      }
      for (LocalNode node : nodes) {
        node.awaitReady();
        System.out.println(
            node.name() + ": ready at " + node.address() + " (log " + node.log() + ")");
      }
    } catch (LocalServerException e) {
      if (e.product() != Product.OPENSEARCH) {
        throw e;
      }
      throw new IllegalStateException(
          e.getMessage()
              + "\nTo run Varve without OpenSearch, and so without search:"
              + " ./varve up --no-opensearch",
          e);
    }
    if (cassandra.size() > 1) {
      cassandra.awaitAgreement(AGREEMENT_TIMEOUT);
      System.out.println(
          "cassandra: every running node holds the others alive (" + cassandra.size() + " nodes)");
    }
    if (cassandra.replicateAuthentication(AUTH_REPAIR_TIMEOUT)) {
      System.out.println(
          "cassandra: system_auth (roles and credentials) now has replication factor "
              + cassandra.replicationFactor()
              + ", repaired");
    }
  }

  /**
   * Whether a node must answer before the next one starts: a node of a cluster joining its ring.
   */
  private boolean joinsCluster(LocalNode node) {
    return cassandra.size() > 1 && node.name().startsWith("cassandra ");
  }
}
