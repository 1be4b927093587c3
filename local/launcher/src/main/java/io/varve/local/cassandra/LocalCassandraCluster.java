package io.varve.local.cassandra;

import io.varve.local.LocalServerException;
import io.varve.local.Loopback;
import io.varve.local.Product;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

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

  /**
   * The file in node 1's home that records that {@code system_auth} was given the cluster's
   * replication factor and repaired ({@link #replicateAuthentication}).
   */
  public static final String AUTH_REPLICATED = "system_auth-replicated";

  private static final Duration AGREEMENT_POLL = Duration.ofMillis(250);

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
              first.toBuilder()
                  .home(first.home().resolve("node" + n))
                  .jmxPort(first.jmxPort() + n - 1)
                  .address(Loopback.nodeAddress(n), seed)
                  .build()));
    }
    return new LocalCassandraCluster(nodes);
  }

  /**
   * The cluster of {@code count} nodes that {@code node}, the settings of its node {@code n}, is
   * part of: the cluster {@link #of} makes from node 1's settings.
   */
  public static LocalCassandraCluster containing(LocalCassandraSettings node, int n, int count) {
    if (count == 1) {
      return of(node, 1);
    }
    return of(
        node.toBuilder().home(node.home().getParent()).jmxPort(node.jmxPort() - (n - 1)).build(),
        count);
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
    return LocalCassandraSettings.forDevelopment(varveHome).toBuilder()
        .home(varveHome.resolve(".varve/cassandra-cluster"))
        .heapSize("512m")
        .build();
  }

  /**
   * What the nodes of the tests' cluster are made from: home {@code .varve/test-cassandra-cluster},
   * CQL 23042, storage 23000, JMX from 23199, heap 512m per node.
   */
  public static LocalCassandraSettings testTemplate(Path varveHome) {
    return LocalCassandraSettings.forTests(varveHome).toBuilder()
        .home(varveHome.resolve(".varve/test-cassandra-cluster"))
        .ports(23042, 23000, 23199)
        .heapSize("512m")
        .build();
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
   * the next is launched (a node that runs already is only waited for); then waits until every node
   * is ready (a secure node: its role logs in, which needs a quorum of the nodes once {@code
   * system_auth} has several replicas), until every running node {@linkplain #awaitAgreement holds
   * every running node alive}, and {@linkplain #replicateAuthentication replicates the roles}.
   *
   * @param timeoutPerNode how long each node may take to answer
   * @throws io.varve.local.LocalServerException naming the node that failed and quoting its log
   */
  public void start(Duration timeoutPerNode) {
    boolean empty = builtEmptyNow();
    for (LocalCassandra node : nodes) {
      LocalCassandra starting =
          empty && node != nodes.get(0) ? new LocalCassandra(node.settings(), false) : node;
      starting.start();
      starting.awaitCql(timeoutPerNode);
    }
    for (LocalCassandra node : nodes) {
      node.awaitReady(timeoutPerNode);
    }
    awaitAgreement(timeoutPerNode);
    replicateAuthentication(timeoutPerNode);
  }

  /**
   * Whether this start builds the cluster from nothing: several nodes, plain (no roles to carry),
   * and the seed never ran (no data directory). Its other nodes then join without a bootstrap: the
   * ring holds no data to stream, and a bootstrap would wait for ring information and sleep a ring
   * delay (10 s here) per node before streaming nothing. A cluster that ran before, a secure one
   * (its roles, written on the seed before the others join, must move with their ranges) and a node
   * added later all bootstrap as Cassandra does by default.
   */
  private boolean builtEmptyNow() {
    LocalCassandraSettings seed = nodes.get(0).settings();
    return nodes.size() > 1
        && seed.security().isEmpty()
        && !Files.exists(seed.home().resolve("data"));
  }

  /**
   * The addresses that node {@code n} holds alive, itself included: its failure detector's view,
   * the "U" of {@code nodetool status}, read from its local-only JMX port.
   *
   * @throws LocalServerException if the node's JMX port does not answer
   */
  public Set<String> liveNodesSeenBy(int n) {
    LocalCassandraSettings node = node(n).settings();
    try {
      return GossipView.liveNodes(node);
    } catch (IOException e) {
      throw new LocalServerException(
          Product.CASSANDRA,
          "Cannot ask node " + n + " which nodes are alive: " + e.getMessage(),
          e);
    }
  }

  /**
   * Waits until every running node holds every running node alive. A node that was restarted
   * answers CQL before the others' gossip has marked it alive, and until then a coordinator sends
   * it no writes: losing another node in that window leaves a quorum of three unreachable although
   * two nodes run. Does nothing on a single node.
   *
   * @throws LocalServerException if they do not agree within the timeout; the message gives each
   *     node's view
   */
  public void awaitAgreement(Duration timeout) {
    if (nodes.size() == 1) {
      return;
    }
    long deadline = System.nanoTime() + timeout.toNanos();
    while (true) {
      Map<Integer, String> disagreements = new TreeMap<>();
      List<Integer> running = new ArrayList<>();
      for (int n = 1; n <= nodes.size(); n++) {
        if (node(n).status().isRunning()) {
          running.add(n);
        }
      }
      Set<String> addresses = new TreeSet<>();
      running.forEach(n -> addresses.add(node(n).settings().address()));
      for (int n : running) {
        try {
          Set<String> live = GossipView.liveNodes(node(n).settings());
          if (!live.containsAll(addresses)) {
            disagreements.put(n, "holds alive " + new TreeSet<>(live));
          }
        } catch (IOException e) {
          disagreements.put(n, e.getMessage());
        }
      }
      if (disagreements.isEmpty()) {
        return;
      }
      if (System.nanoTime() - deadline > 0) {
        throw new LocalServerException(
            Product.CASSANDRA,
            "The running nodes "
                + addresses
                + " do not all hold each other alive after "
                + timeout.toSeconds()
                + " s: "
                + disagreements.entrySet().stream()
                    .map(e -> "node " + e.getKey() + " " + e.getValue())
                    .collect(Collectors.joining("; ")));
      }
      try {
        Thread.sleep(AGREEMENT_POLL.toMillis());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new LocalServerException(
            Product.CASSANDRA, "Interrupted while waiting for the nodes to see each other", e);
      }
    }
  }

  /**
   * On a secure cluster of several nodes, gives the keyspace of roles and credentials, {@code
   * system_auth}, the {@linkplain #replicationFactor() replication factor} of the data and repairs
   * it, once: Cassandra keeps one replica of it by default, so that losing the node that holds a
   * role would lock that role out. Afterwards a login reads the role from a quorum of its replicas:
   * it succeeds with one node of three down. Done at the first start with every node running (the
   * repair copies the roles to the new replicas) and recorded in node 1's home ({@value
   * #AUTH_REPLICATED}); later starts do nothing. Does nothing on a single or a plain node.
   *
   * @return whether it was done now
   * @throws io.varve.local.LocalServerException if the change or the repair fails
   */
  public boolean replicateAuthentication(Duration timeout) {
    LocalCassandraSettings first = nodes.get(0).settings();
    Path done = first.home().resolve(AUTH_REPLICATED);
    if (nodes.size() == 1 || first.security().isEmpty() || Files.exists(done)) {
      return false;
    }
    try {
      SecureNodeLogin.execute(
          first.cqlAddress(),
          first.security().get(),
          "ALTER KEYSPACE system_auth WITH replication = {'class': 'SimpleStrategy',"
              + " 'replication_factor': "
              + replicationFactor()
              + "}",
          timeout);
      NodeTool.run(first, List.of("repair", "--full", "system_auth"), timeout);
      Files.writeString(
          done,
          "system_auth: replication factor "
              + replicationFactor()
              + ", repaired at "
              + Instant.now()
              + "\n");
      return true;
    } catch (IOException | GeneralSecurityException e) {
      throw new LocalServerException(
          Product.CASSANDRA,
          "Cannot give system_auth replication factor "
              + replicationFactor()
              + " through "
              + first.cqlAddress()
              + ": "
              + e.getMessage(),
          e);
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
