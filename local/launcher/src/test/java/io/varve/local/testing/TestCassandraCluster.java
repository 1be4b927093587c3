package io.varve.local.testing;

import io.varve.local.LocalServerException;
import io.varve.local.Loopback;
import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.cassandra.LocalCassandraSettings;
import java.time.Duration;

/**
 * The three-node Cassandra cluster of the integration tests that need real replica sets or lose a
 * node: {@link LocalCassandraCluster#forTests} (127.0.0.1-3, CQL 23042, home {@code
 * .varve/test-cassandra-cluster}), never the shared test node.
 *
 * <p>A cluster already running (started by {@code ./varve local cassandra start --tests --nodes 3},
 * or by an earlier test class of the same JVM) is used as it is and left running. Otherwise the
 * nodes are started one at a time, from empty homes, and stopped when the JVM exits: three idle
 * nodes would otherwise keep taking memory and CPU from the rest of the build. If a node of a
 * cluster started this way fails to start, the failure (with the end of the node's log) is printed
 * and the cluster is started once more from empty homes.
 *
 * <p>Uses the JDK only. Thread-safe.
 */
public final class TestCassandraCluster {

  /** The size of the tests' cluster: replication factor 3, and a quorum left with one node down. */
  public static final int NODES = 3;

  private static final Duration NODE_START_TIMEOUT = Duration.ofMinutes(4);
  private static final Duration NODE_STOP_TIMEOUT = Duration.ofMinutes(1);

  private static LocalCassandraCluster cluster;
  private static boolean fromEmptyHomes;

  private TestCassandraCluster() {}

  /**
   * The running cluster, started on first use; every node answers CQL when this returns (a node a
   * test killed is started again).
   *
   * @throws io.varve.local.LocalServerException if a node cannot start; the message quotes its log
   */
  public static synchronized LocalCassandraCluster get() {
    if (cluster == null) {
      LocalCassandraCluster nodes = LocalCassandraCluster.forTests(VarveHome.locate(), NODES);
      boolean running = nodes.nodes().stream().anyMatch(node -> node.status().isRunning());
      fromEmptyHomes = !running;
      if (!running) {
        awaitPortsFree(nodes);
        LocalMachine.deleteTree(nodes.node(1).settings().home().getParent());
        Runtime.getRuntime()
            .addShutdownHook(
                new Thread(() -> nodes.stop(NODE_STOP_TIMEOUT), "test-cassandra-cluster-stop"));
      }
      cluster = nodes;
    }
    long started = System.nanoTime();
    try {
      cluster.start(NODE_START_TIMEOUT);
    } catch (LocalServerException e) {
      if (!fromEmptyHomes) {
        throw e;
      }
      // A node of a cluster this JVM started from empty homes gave up while joining (seen once in
      // CI, a joining node that exited): say why, then start the whole cluster again, once.
      System.out.println("TestCassandraCluster: starting again from empty homes after: " + e);
      cluster.stop(NODE_STOP_TIMEOUT);
      awaitPortsFree(cluster);
      LocalMachine.deleteTree(cluster.node(1).settings().home().getParent());
      cluster.start(NODE_START_TIMEOUT);
    }
    fromEmptyHomes = false;
    System.out.printf(
        "TestCassandraCluster: %d nodes at %s ready (%.1f s)%n",
        NODES, cluster.contactPoints(), (System.nanoTime() - started) / 1e9);
    return cluster;
  }

  /**
   * Waits until no process listens on a node's CQL, storage or JMX port: a node of a cluster that
   * another JVM started and is still stopping (its shutdown hook cut short) would keep writing into
   * the homes about to be emptied, and the new node would exit at once.
   */
  private static void awaitPortsFree(LocalCassandraCluster nodes) {
    long deadline = System.nanoTime() + NODE_STOP_TIMEOUT.toNanos();
    for (var node : nodes.nodes()) {
      var s = node.settings();
      for (int port : new int[] {s.cqlPort(), s.storagePort(), s.jmxPort()}) {
        while (!Loopback.portFree(s.address(), port)) {
          if (System.nanoTime() > deadline) {
            throw new LocalServerException(
                io.varve.local.Product.CASSANDRA,
                "Port "
                    + s.address()
                    + ":"
                    + port
                    + " of the tests' cluster is still in use "
                    + NODE_STOP_TIMEOUT.toSeconds()
                    + " s later: stop the process holding it (./varve local cassandra stop --tests"
                    + " --nodes 3)");
          }
          try {
            Thread.sleep(500);
          } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
          }
        }
      }
    }
  }

  /** The data center of every node, for a driver's load balancing. */
  public static String localDatacenter() {
    return LocalCassandraSettings.DATACENTER;
  }
}
