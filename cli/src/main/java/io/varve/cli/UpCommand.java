package io.varve.cli;

import io.varve.command.ExitStatus;
import io.varve.local.LocalServerException;
import io.varve.local.Product;
import io.varve.local.server.LocalVarveServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/**
 * Starts the local OpenSearch, the local Cassandra and the Varve server in the background and waits
 * until all answer. OpenSearch and Cassandra start side by side (each is launched, then both are
 * awaited); the server then starts with Cassandra as its primary store and OpenSearch as its index
 * store. {@code --no-opensearch} leaves OpenSearch out: the server then runs without index store,
 * and so without search.
 */
@Command(
    name = "up",
    mixinStandardHelpOptions = true,
    description =
        "Start the local OpenSearch and Cassandra and the Varve server in the background.")
final class UpCommand implements Callable<Integer> {

  @Mixin InstanceOptions instance;

  @Option(names = "--config", description = "Server configuration file (YAML).")
  String config;

  @Option(
      names = "--no-opensearch",
      description =
          "Do not start OpenSearch, which needs a JDK 21+; the server then runs without search.")
  boolean noOpenSearch;

  @Override
  public Integer call() throws Exception {
    List<LocalNode> nodes = nodes();
    try {
      for (LocalNode node : nodes) {
        System.out.println(node.name() + ": starting (data in " + node.home() + ")");
        node.start();
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
    LocalVarveServer server = Instances.server(instance.port, serverArgs());
    server.start();
    server.awaitReady(Duration.ofMinutes(2));
    String api = server.settings().endpoint().toString();
    System.out.println("varve: ready");
    System.out.println("  API (gRPC and HTTP/JSON POST /v1/<RpcName>): " + api);
    System.out.println("  browsable API page: " + api + "/docs/");
    System.out.println("  log: " + server.settings().log());
    return ExitStatus.OK.code();
  }

  /**
   * The local servers to start, in order: OpenSearch first, as it fails at once when no JDK 21+ is
   * found, before Cassandra is launched; Cassandra alone with {@code --no-opensearch}.
   */
  List<LocalNode> nodes() {
    List<LocalNode> nodes = new ArrayList<>();
    if (!noOpenSearch) {
      nodes.add(LocalNode.opensearch(Instances.opensearch(instance.opensearchPort)));
    }
    nodes.add(LocalNode.cassandra(Instances.cassandra(instance.cqlPort)));
    return nodes;
  }

  /**
   * The arguments of {@code varve serve} for the background server: the local nodes, the port, the
   * config.
   */
  List<String> serverArgs() {
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
}
