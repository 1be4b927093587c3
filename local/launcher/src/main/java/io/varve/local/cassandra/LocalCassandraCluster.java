package io.varve.local.cassandra;

import io.varve.local.Loopback;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A local Cassandra cluster of several nodes on one machine: node {@code n} listens on {@code
 * 127.0.0.<n>} with the same CQL and storage ports as the others, its own home ({@code
 * <home>/node<n>}) and its own JMX port ({@code jmxPort + n - 1}, as Cassandra binds local JMX to
 * 127.0.0.1 whatever the node's address); node 1 is every node's seed. All nodes have {@code
 * num_tokens: 16}, the cluster name {@value LocalCassandraSettings#CLUSTER_NAME} and the data
 * center {@value LocalCassandraSettings#DATACENTER}.
 *
 * <p>{@link #start(Duration)} starts the nodes one at a time, each waited for before the next:
 * Cassandra lets only one node join a ring at a time, and a node answers CQL only once it has
 * joined. A one-node "cluster" is the single node of {@link LocalCassandraSettings} itself.
 *
 * <p>Thread-safe: the state lives in the nodes' homes, like that of every {@link LocalCassandra}.
 */
public final class LocalCassandraCluster {

  /** The largest cluster offered: enough for replication factor 3 plus one node to lose. */
  public static final int MAX_NODES = 9;

  private final List<LocalCassandra> nodes;

  private LocalCassandraCluster(List<LocalCassandra> nodes) {
    this.nodes = List.copyOf(nodes);
  }

  /**
   * {@code count} nodes made from {@code first}, the settings of node 1: its home is the cluster's
   * directory (node {@code n} gets {@code <home>/node<n>}), its ports and heap are every node's.
   * One node is {@code first} itself, at its own home and address.
   */
  public static LocalCassandraCluster of(LocalCassandraSettings first, int count) {
    Objects.requireNonNull(first, "first");
    if (count < 1 || count > MAX_NODES) {
      throw new IllegalArgumentException("nodes: " + count + " (expected: 1.." + MAX_NODES + ")");
    }
    if (count == 1) {
      return new LocalCassandraCluster(List.of(new LocalCassandra(first)));
    }
    List<LocalCassandra> nodes = new ArrayList<>();
    String seed = Loopback.nodeAddress(1);
    for (int n = 1; n <= count; n++) {
      nodes.add(
          new LocalCassandra(
              first
                  .withHome(first.home().resolve("node" + n))
                  .withJmxPort(first.jmxPort() + n - 1)
                  .withAddress(Loopback.nodeAddress(n), seed)));
    }
    return new LocalCassandraCluster(nodes);
  }

  /**
   * The developer's cluster of {@code count} nodes ({@link #developmentTemplate}); one node is the
   * developer's single node, {@link LocalCassandraSettings#forDevelopment}.
   */
  public static LocalCassandraCluster forDevelopment(Path varveHome, int count) {
    return count == 1
        ? of(LocalCassandraSettings.forDevelopment(varveHome), 1)
        : of(developmentTemplate(varveHome), count);
  }

  /**
   * The integration tests' cluster of {@code count} nodes ({@link #testTemplate}), which runs
   * beside the developer's cluster and the shared test node.
   */
  public static LocalCassandraCluster forTests(Path varveHome, int count) {
    return of(testTemplate(varveHome), count);
  }

  /**
   * What the nodes of the developer's cluster are made from: home {@code .varve/cassandra-cluster},
   * CQL 9042, storage 7000, JMX from 7199, heap 512m per node.
   */
  public static LocalCassandraSettings developmentTemplate(Path varveHome) {
    return LocalCassandraSettings.forDevelopment(varveHome)
        .withHome(varveHome.resolve(".varve/cassandra-cluster"))
        .withHeapSize("512m");
  }

  /**
   * What the nodes of the tests' cluster are made from: home {@code .varve/test-cassandra-cluster},
   * CQL 49042, storage 47000, JMX from 47199, heap 512m per node.
   */
  public static LocalCassandraSettings testTemplate(Path varveHome) {
    return LocalCassandraSettings.forTests(varveHome)
        .withHome(varveHome.resolve(".varve/test-cassandra-cluster"))
        .withPorts(49042, 47000, 47199)
        .withHeapSize("512m");
  }

  /** The nodes, node 1 first. */
  public List<LocalCassandra> nodes() {
    return nodes;
  }

  /** Node {@code n}, 1-based. */
  public LocalCassandra node(int n) {
    if (n < 1 || n > nodes.size()) {
      throw new IllegalArgumentException("node: " + n + " (expected: 1.." + nodes.size() + ")");
    }
    return nodes.get(n - 1);
  }

  /** How many nodes the cluster has. */
  public int size() {
    return nodes.size();
  }

  /** Every node's CQL address, node 1 first: the contact points to give a driver. */
  public List<InetSocketAddress> contactPoints() {
    return nodes.stream().map(node -> node.settings().cqlAddress()).toList();
  }

  /**
   * The replication factor that keyspaces on this cluster should have: 3 when it has three nodes or
   * more (a quorum then survives the loss of one node), else the number of nodes.
   */
  public int replicationFactor() {
    return Math.min(3, nodes.size());
  }

  /**
   * Starts the nodes that do not run, one at a time, each waited for until it answers CQL before
   * the next is launched; a node that runs already is only waited for.
   *
   * @param timeoutPerNode how long each node may take to answer
   * @throws io.varve.local.LocalServerException naming the node that failed and quoting its log
   */
  public void start(Duration timeoutPerNode) {
    for (LocalCassandra node : nodes) {
      node.start();
      node.awaitReady(timeoutPerNode);
    }
  }

  /**
   * Stops every node that runs, the last one first, so that the seed goes last; returns whether any
   * ran.
   */
  public boolean stop(Duration timeoutPerNode) {
    boolean any = false;
    for (int i = nodes.size() - 1; i >= 0; i--) {
      any |= nodes.get(i).stop(timeoutPerNode);
    }
    return any;
  }
}
