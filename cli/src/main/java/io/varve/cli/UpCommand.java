package io.varve.cli;

import io.varve.command.ExitStatus;
import io.varve.local.LocalServerException;
import io.varve.local.Product;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.server.LocalVarveServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * Starts the local OpenSearch, the local Cassandra and the Varve server in the background and waits
 * until all answer. OpenSearch and Cassandra start side by side (each is launched, then both are
 * awaited); the server then starts with Cassandra as its primary store and OpenSearch as its index
 * store. {@code --no-opensearch} leaves OpenSearch out: the server then runs without index store,
 * and so without search.
 *
 * <p>{@code --nodes N} starts a local Cassandra cluster of N nodes instead of the single node, on
 * 127.0.0.1..N, one node at a time (a node joins the ring only after the previous one has), and
 * gives the server a configuration of its own ({@code .varve/server/up.yaml}: every node as a
 * contact point, keyspaces created with replication factor {@code min(N, 3)}).
 */
@Command(
    name = "up",
    mixinStandardHelpOptions = true,
    description =
        "Start the local OpenSearch and Cassandra and the Varve server in the background.")
final class UpCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin InstanceOptions instance;

  @Option(names = "--config", description = "Server configuration file (YAML).")
  String config;

  @Option(
      names = "--no-opensearch",
      description =
          "Do not start OpenSearch, which needs a JDK 21+; the server then runs without search.")
  boolean noOpenSearch;

  @Option(
      names = "--nodes",
      defaultValue = "1",
      description =
          "Cassandra nodes to start (default: ${DEFAULT-VALUE}); more than one: a local cluster on"
              + " 127.0.0.1..N in .varve/cassandra-cluster, keyspaces with replication factor"
              + " min(N, 3).")
  int nodes;

  @Override
  public Integer call() throws Exception {
    List<String> serverArgs = serverArgs();
    List<LocalNode> nodes = nodes();
    List<LocalNode> waiting = new ArrayList<>();
    try {
      for (LocalNode node : nodes) {
        System.out.println(node.name() + ": starting (data in " + node.home() + ")");
        node.start();
        waiting.add(node);
        if (joinsCluster(node)) {
          awaitAll(waiting);
        }
      }
      awaitAll(waiting);
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
    if (this.nodes > 1) {
      writeServerConfig();
    }
    LocalVarveServer server = Instances.server(instance.port, serverArgs);
    server.start();
    server.awaitReady(Duration.ofMinutes(2));
    String api = server.settings().endpoint().toString();
    System.out.println("varve: ready");
    System.out.println("  API (gRPC and HTTP/JSON POST /v1/<RpcName>): " + api);
    System.out.println("  browsable API page: " + api + "/docs/");
    System.out.println("  log: " + server.settings().log());
    return ExitStatus.OK.code();
  }

  private static void awaitAll(List<LocalNode> waiting) {
    for (LocalNode node : waiting) {
      node.awaitReady();
      System.out.println(
          node.name() + ": ready at " + node.address() + " (log " + node.log() + ")");
    }
    waiting.clear();
  }

  /**
   * Whether a node must answer before the next one starts: a node of a cluster joining its ring.
   */
  private boolean joinsCluster(LocalNode node) {
    return nodes > 1 && node.name().startsWith("cassandra ");
  }

  /**
   * The local servers to start, in order: OpenSearch first, as it fails at once when no JDK 21+ is
   * found, before Cassandra is launched; Cassandra alone with {@code --no-opensearch}; with {@code
   * --nodes N}, Cassandra's N nodes, node 1 (the seed) first.
   */
  List<LocalNode> nodes() {
    List<LocalNode> nodes = new ArrayList<>();
    if (!noOpenSearch) {
      nodes.add(LocalNode.opensearch(Instances.opensearch(instance.opensearchPort)));
    }
    if (this.nodes == 1) {
      nodes.add(LocalNode.cassandra(Instances.cassandra(instance.cqlPort)));
      return nodes;
    }
    List<LocalCassandra> cluster = Instances.cluster(instance.cqlPort, this.nodes).nodes();
    for (int n = 1; n <= cluster.size(); n++) {
      nodes.add(LocalNode.clusterNode(cluster.get(n - 1), n));
    }
    return nodes;
  }

  /**
   * The arguments of {@code varve serve} for the background server: the local nodes, the port, the
   * config.
   */
  List<String> serverArgs() {
    if (nodes > 1) {
      return clusterServerArgs();
    }
    List<String> args =
        new ArrayList<>(
            List.of(
                "--port",
                Integer.toString(instance.port),
                "--cassandra",
                "127.0.0.1:" + instance.cqlPort));
    if (!noOpenSearch) {
      args.add("--opensearch");
      args.add(Instances.opensearch(instance.opensearchPort).settings().endpoint().toString());
    }
    if (config != null) {
      args.add("--config");
      args.add(config);
    }
    return args;
  }

  /**
   * With a cluster: the server's own configuration file, {@code .varve/server/up.yaml}, rewritten
   * at each {@code up}, with every node as a contact point and the replication of the keyspaces it
   * creates; a file of the user's would have to hold both, so {@code --config} is refused.
   */
  private List<String> clusterServerArgs() {
    if (config != null) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--config cannot be combined with --nodes: up writes the server's configuration for a"
              + " cluster (contact points and replication); run the cluster with `./varve local"
              + " cassandra start --nodes N` and `./varve serve --config` a file of your own");
    }
    List<String> args = new ArrayList<>(List.of("--port", Integer.toString(instance.port)));
    if (!noOpenSearch) {
      args.add("--opensearch");
      args.add(Instances.opensearch(instance.opensearchPort).settings().endpoint().toString());
    }
    args.add("--config");
    args.add(serverConfig().toString());
    return args;
  }

  private static Path serverConfig() {
    return Instances.serverHome().resolve("up.yaml");
  }

  /** Writes {@code up.yaml} for the cluster, see {@link #clusterServerArgs()}. */
  private void writeServerConfig() throws IOException {
    Files.createDirectories(serverConfig().getParent());
    Files.writeString(
        serverConfig(), UpServerConfig.yaml(Instances.cluster(instance.cqlPort, nodes)));
  }
}
