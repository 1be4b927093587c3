package io.varve.local.cassandra;

import io.varve.command.ExitStatus;
import io.varve.local.LauncherCommand;
import io.varve.local.LocalServerException;
import io.varve.local.Product;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Command line for the local Cassandra, used by {@code ./varve} and CI:
 *
 * <pre>
 * java -cp varve-local.jar io.varve.local.cassandra.LocalCassandraMain start|stop|status|kill [options]
 *
 *   --tests               the integration tests' instance (ports 19042/17000/17199)
 *   --varve-home DIR      the Varve checkout (default: property varve.home, else found upwards
 *                         from the working directory)
 *   --home DIR            the node's directory (default: VARVE_HOME/.varve/cassandra)
 *   --lib DIR             the Cassandra jars (default: VARVE_HOME/local/cassandra-dist/target/lib)
 *   --port N              CQL port            --storage-port N, --jmx-port N
 *   --heap SIZE           like 768m or 1g     --java PATH (a Java 17 java)
 *   --commitlog MODE      batch (default) or group:5ms
 *   --nodes N             a cluster of N nodes on 127.0.0.1..N (home .varve/cassandra-cluster,
 *                         or .varve/test-cassandra-cluster with --tests; heap 512m each)
 *   --node K              with --nodes: act on node K alone (e.g. kill one node)
 *   --secure              TLS only on the CQL port and password authentication, with the
 *                         certificates and passwords of --secure-dir (default .varve/secure),
 *                         generated on first use; clients log in as role varve
 *   --timeout SECONDS     how long start waits for CQL, or stop for a clean exit (120)
 *   --no-wait             start returns once the process is launched
 * </pre>
 *
 * <p>Prints one line per action. Exit statuses ({@link ExitStatus}, docs/exit-status.md): {@code
 * OK} on success; {@code COMPLETED_WITH_ERRORS} for {@code status} when the node does not run;
 * {@code INVALID_INPUT} for a usage error; {@code ABORTED_FATAL_ERROR} when the action fails.
 */
public final class LocalCassandraMain {

  private static final LauncherCommand.Syntax SYNTAX =
      new LauncherCommand.Syntax(
          Product.CASSANDRA,
          List.of("--tests", "--no-wait", "--secure"),
          "usage: LocalCassandraMain start|stop|status|kill [--tests] [--varve-home DIR]"
              + " [--home DIR] [--lib DIR] [--port N] [--storage-port N] [--jmx-port N] [--heap SIZE]"
              + " [--commitlog batch|group:5ms] [--java PATH] [--timeout SECONDS] [--no-wait]"
              + " [--nodes N [--node K]] [--secure [--secure-dir DIR]]",
          Duration.ofSeconds(120));

  private LocalCassandraMain() {}

  /** Runs one action and exits the JVM with its status. */
  public static void main(String[] args) {
    LauncherCommand.exit(() -> run(args, System.out, System.err));
  }

  /**
   * Runs one action, printing to {@code out} and {@code err}; returns the exit status. With {@code
   * --nodes N} the action runs on each node in turn (node 1 first; {@code stop} and {@code kill}
   * the last node first), or on node K alone with {@code --node K}; the status is the worst of
   * theirs, and {@code start} stops at the first node that fails.
   */
  public static int run(String[] args, PrintStream out, PrintStream err) {
    ClusterArguments cluster;
    try {
      cluster = ClusterArguments.parse(args);
    } catch (IllegalArgumentException e) {
      err.println(Product.CASSANDRA.label() + ": " + e.getMessage());
      err.println(SYNTAX.usage());
      return ExitStatus.INVALID_INPUT.code();
    }
    if (cluster.nodes() == 0) {
      return runOn(cluster.rest(), 0, 1, out, err, made -> {});
    }
    List<Integer> order = cluster.order();
    if (cluster.isStart()
        && cluster.node() == 0
        && !List.of(cluster.rest()).contains("--no-wait")) {
      int launched = launch(cluster, order, out, err);
      if (launched != ExitStatus.OK.code()) {
        return launched;
      }
    }
    int worst = ExitStatus.OK.code();
    List<LocalCassandra> actedOn = new ArrayList<>();
    for (int node : order) {
      int status = runOn(cluster.rest(), node, cluster.nodes(), out, err, actedOn::add);
      worst = Math.max(worst, status);
      if (status != ExitStatus.OK.code() && cluster.isStart()) {
        break;
      }
    }
    if (worst == ExitStatus.OK.code()
        && cluster.isStart()
        && !List.of(cluster.rest()).contains("--no-wait")) {
      return awaitAgreement(cluster, order.get(0), actedOn.get(0), out, err);
    }
    return worst;
  }

  /**
   * Once a start has brought the nodes up, waits until every running node of the cluster holds
   * every other alive ({@link LocalCassandraCluster#awaitAgreement}): a node brought back answers
   * CQL before the others' gossip takes it for alive.
   */
  private static int awaitAgreement(
      ClusterArguments cluster, int n, LocalCassandra node, PrintStream out, PrintStream err) {
    LocalCassandraCluster whole =
        LocalCassandraCluster.containing(node.settings(), n, cluster.nodes());
    try {
      whole.awaitAgreement(LauncherCommand.timeout(cluster.rest(), SYNTAX));
    } catch (LocalServerException e) {
      err.println(Product.CASSANDRA.label() + ": start failed: " + e.getMessage());
      return ExitStatus.ABORTED_FATAL_ERROR.code();
    }
    out.println(
        Product.CASSANDRA.label()
            + ": every running node holds the others alive ("
            + cluster.nodes()
            + " nodes)");
    return ExitStatus.OK.code();
  }

  /**
   * Launches the whole cluster's nodes, one at a time, each awaited until it answers CQL (it has
   * joined the ring through the seed) before the next; their readiness is awaited afterwards, once
   * all run. A secure node is ready when its role logs in, and once {@code ./varve up} has
   * replicated the roles a login needs a quorum of the nodes: awaiting each node's readiness before
   * launching the next would wait forever on a stopped secure cluster.
   */
  private static int launch(
      ClusterArguments cluster, List<Integer> order, PrintStream out, PrintStream err) {
    List<String> launch = new ArrayList<>(List.of(cluster.rest()));
    launch.add("--no-wait");
    for (int node : order) {
      List<LocalCassandra> made = new ArrayList<>();
      int status = runOn(launch.toArray(String[]::new), node, cluster.nodes(), out, err, made::add);
      if (status != ExitStatus.OK.code()) {
        return status;
      }
      try {
        made.get(0).awaitCql(LauncherCommand.timeout(cluster.rest(), SYNTAX));
      } catch (LocalServerException e) {
        err.println(Product.CASSANDRA.label() + ": start failed: " + e.getMessage());
        return ExitStatus.ABORTED_FATAL_ERROR.code();
      }
    }
    return ExitStatus.OK.code();
  }

  /**
   * One action on node {@code node} of a cluster of {@code nodes}; node 0: the single node. {@code
   * made} receives the node acted on.
   */
  private static int runOn(
      String[] args,
      int node,
      int nodes,
      PrintStream out,
      PrintStream err,
      Consumer<LocalCassandra> made) {
    return LauncherCommand.run(
        args,
        out,
        err,
        SYNTAX,
        options -> {
          LocalCassandraSettings settings = settings(options, node, nodes);
          LocalCassandra cassandra = new LocalCassandra(settings);
          made.accept(cassandra);
          return new LauncherCommand.Target(
              cassandra,
              (node == 0 ? "" : "node=" + node + " ")
                  + "cql="
                  + settings.address()
                  + ":"
                  + settings.cqlPort()
                  + " log="
                  + settings.systemLog(),
              settings.systemLog());
        });
  }

  private static LocalCassandraSettings settings(Map<String, String> options, int node, int nodes) {
    Path home = LauncherCommand.varveHome(options);
    boolean tests = options.remove("--tests") != null;
    boolean secure = options.remove("--secure") != null;
    String secureDirectory = options.remove("--secure-dir");
    LocalCassandraSettings settings;
    if (node == 0) {
      settings =
          tests
              ? LocalCassandraSettings.forTests(home)
              : LocalCassandraSettings.forDevelopment(home);
    } else {
      settings =
          tests
              ? LocalCassandraCluster.testTemplate(home)
              : LocalCassandraCluster.developmentTemplate(home);
    }
    // The ports in one build: each build requires three distinct ports, and one port moved at a
    // time could meet another on the way.
    settings =
        settings.toBuilder()
            .ports(
                port(options.remove("--port"), "--port", settings.cqlPort()),
                port(options.remove("--storage-port"), "--storage-port", settings.storagePort()),
                port(options.remove("--jmx-port"), "--jmx-port", settings.jmxPort()))
            .build();
    for (Map.Entry<String, String> option : options.entrySet()) {
      settings = with(settings.toBuilder(), option.getKey(), option.getValue()).build();
    }
    if (secure) {
      settings =
          settings.toBuilder()
              .security(
                  secureDirectory == null
                      ? LocalCassandraSecurity.forDevelopment(home)
                      : new LocalCassandraSecurity(Path.of(secureDirectory)))
              .build();
    } else if (secureDirectory != null) {
      throw new IllegalArgumentException("--secure-dir: needs --secure");
    }
    // The options set the template the nodes are made from: ports and home are the cluster's.
    return node == 0 ? settings : LocalCassandraCluster.of(settings, nodes).node(node).settings();
  }

  private static LocalCassandraSettings.Builder with(
      LocalCassandraSettings.Builder s, String name, String value) {
    return switch (name) {
      case "--home" -> s.home(Path.of(value));
      case "--lib" -> s.libDirectory(Path.of(value));
      case "--heap" -> s.heapSize(value);
      case "--commitlog" -> s.commitlogSync(CommitlogSync.parse(value));
      case "--java" -> s.javaExecutable(Path.of(value));
      default -> throw new IllegalArgumentException("unknown option: " + name);
    };
  }

  /**
   * {@code --nodes} and {@code --node}, taken out of the arguments before the shared command line
   * reads the rest.
   *
   * @param nodes the cluster's size; 0 for the single node (no {@code --nodes}, or {@code --nodes
   *     1})
   * @param node the one node to act on, or 0 for all
   */
  private record ClusterArguments(String[] rest, int nodes, int node, boolean isStart) {

    static ClusterArguments parse(String[] args) {
      List<String> rest = new ArrayList<>();
      String nodes = null;
      String node = null;
      for (int i = 0; i < args.length; i++) {
        if ((args[i].equals("--nodes") || args[i].equals("--node")) && i + 1 < args.length) {
          if (args[i].equals("--nodes")) {
            nodes = args[++i];
          } else {
            node = args[++i];
          }
        } else {
          rest.add(args[i]);
        }
      }
      if (node != null && nodes == null) {
        throw new IllegalArgumentException("--node: needs --nodes N");
      }
      int size = nodes == null ? 1 : count("--nodes", nodes, LocalCassandraCluster.MAX_NODES);
      int one = node == null ? 0 : count("--node", node, size);
      return new ClusterArguments(
          rest.toArray(String[]::new),
          size == 1 ? 0 : size,
          size == 1 ? 0 : one,
          rest.contains("start"));
    }

    /** The nodes to act on, in order: node 1 first, but the seed last when stopping. */
    List<Integer> order() {
      if (node > 0) {
        return List.of(node);
      }
      List<Integer> order = new ArrayList<>();
      for (int n = 1; n <= nodes; n++) {
        order.add(n);
      }
      List<String> words = List.of(rest);
      if (words.contains("stop") || words.contains("kill")) {
        Collections.reverse(order);
      }
      return order;
    }

    private static int count(String name, String value, int max) {
      if (!value.matches("[1-9][0-9]{0,2}") || Integer.parseInt(value) > max) {
        throw new IllegalArgumentException(name + ": " + value + " (expected: 1.." + max + ")");
      }
      return Integer.parseInt(value);
    }
  }

  private static int port(String value, String name, int otherwise) {
    return value == null ? otherwise : LauncherCommand.port(name, value);
  }
}
