package io.varve.cli;

import io.varve.command.ExitStatus;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.server.LocalVarveServer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
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
 *
 * <p>{@code --secure} starts Cassandra with TLS only on its CQL port and password authentication
 * (the certificates, passwords and API token of {@code .varve/secure}, generated on first use), and
 * gives the server a configuration of its own that reaches Cassandra over TLS as the generated role
 * and serves the API over TLS only, behind the generated token. It composes with {@code --nodes}:
 * the roles are then replicated to {@code min(N, 3)} nodes, so that the role logs in with one node
 * of three down.
 *
 * <p>{@code --servers N} starts N Varve servers on the local Cassandra, on {@code --port} and the
 * ports after it, each with a directory of its own ({@code .varve/server}, {@code .varve/server-2}
 * ...) and the same arguments otherwise: one control plane (the same metadata keyspace), as a fleet
 * runs.
 *
 * <p>What is started and in which order: {@link LocalStartup}; the server's arguments: {@link
 * ServeArguments} and {@link UpServerConfig}; what is printed at the end: {@link UpSummary}.
 */
@Command(
    name = "up",
    mixinStandardHelpOptions = true,
    description =
        "Start the local OpenSearch and Cassandra and the Varve server in the background.")
final class UpCommand implements Callable<Integer> {

  @Spec CommandSpec spec;

  @Mixin InstanceOptions options;

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

  @Option(
      names = "--servers",
      defaultValue = "1",
      description =
          "Varve servers to start on the one local Cassandra (default: ${DEFAULT-VALUE}, at most "
              + UpInstance.MAX_SERVERS
              + "): one control plane, on --port and the ports after it (8080, 8081 ...).")
  int servers;

  @Option(
      names = "--secure",
      description =
          "TLS and passwords: Cassandra takes TLS only and a password, the server reaches it so and"
              + " serves its API over TLS only, behind a bearer token; certificates, passwords and"
              + " the token are generated in .varve/secure.")
  boolean secure;

  @Option(
      names = "--storage-port",
      defaultValue = "7000",
      description = "Inter-node (storage) port of the local Cassandra (default: ${DEFAULT-VALUE}).")
  int storagePort;

  @Option(
      names = "--jmx-port",
      defaultValue = "7199",
      description =
          "JMX port of the local Cassandra, local only (default: ${DEFAULT-VALUE}); node n of a"
              + " cluster: this plus n - 1.")
  int jmxPort;

  @Override
  public Integer call() throws Exception {
    if (servers < 1 || servers > UpInstance.MAX_SERVERS) {
      throw new CommandLine.ParameterException(
          spec.commandLine(),
          "--servers: " + servers + " (expected: 1.." + UpInstance.MAX_SERVERS + ")");
    }
    UpInstance instance = instance();
    // every server's arguments first: what they refuse (--config with --nodes) stops up before
    // anything starts
    List<List<String>> serverArgs = new ArrayList<>();
    for (int k = 1; k <= instance.servers(); k++) {
      serverArgs.add(serverArgs(k));
    }
    requireSameInstance(instance);
    Instances.recordUp(instance);
    LocalCassandraCluster cassandra = cassandra();
    startup().run();
    if (serveArguments().writesServerConfig()) {
      UpServerConfig.write(ServeArguments.configFile(), UpServerConfig.yaml(cassandra));
    }
    List<LocalVarveServer> started = new ArrayList<>();
    for (int k = 1; k <= instance.servers(); k++) {
      LocalVarveServer server =
          Instances.server(k, instance.port(k), serverArgs.get(k - 1), secure);
      server.start();
      started.add(server);
    }
    for (LocalVarveServer server : started) {
      server.awaitReady(Duration.ofMinutes(2));
    }
    UpSummary.print(
        started.stream().map(LocalVarveServer::settings).toList(),
        secure ? Optional.of(Instances.security()) : Optional.empty());
    return ExitStatus.OK.code();
  }

  /**
   * The instance this {@code up} starts: the ports given, the defaults for the others, {@code
   * --nodes} and {@code --secure}.
   */
  UpInstance instance() {
    return options.over(UpInstance.defaults(nodes, servers, secure));
  }

  /**
   * Refuses to start on other ports than, or to switch between {@code up} and {@code up --secure}
   * from, the instance that the last {@code up} recorded while any of its servers runs: each would
   * wait in vain for the other's servers to answer where and as it expects (on its ports, over TLS
   * or not), and the record would no longer name the servers that run.
   */
  private void requireSameInstance(UpInstance instance) {
    UpInstance last = Instances.lastUp();
    if (last.sameAddresses(instance)
        || Instances.nodes(last).stream().noneMatch(LocalNode::isRunning)) {
      return;
    }
    String why =
        last.secure() != instance.secure()
            ? (secure
                ? "--secure: the local servers run without TLS (./varve up)"
                : "the local servers run with TLS and passwords (./varve up --secure)")
            : "the local servers run on "
                + last.ports()
                + " (recorded in "
                + Instances.upRecord()
                + "), not on those asked for";
    throw new CommandLine.ParameterException(
        spec.commandLine(), why + "; stop them with ./varve down first");
  }

  /** The local Cassandra to start: the single node, or the cluster of {@code --nodes}. */
  LocalCassandraCluster cassandra() {
    return Instances.cluster(instance().cqlPort(), storagePort, jmxPort, nodes, secure);
  }

  /** The local servers to start before the Varve server, and how ({@link LocalStartup}). */
  LocalStartup startup() {
    return LocalStartup.of(cassandra(), opensearch());
  }

  /**
   * The arguments of {@code varve serve} for the background server ({@link ServeArguments});
   * refuses {@code --config} where {@code up} writes the server's configuration.
   */
  List<String> serverArgs() {
    return serverArgs(1);
  }

  /** The arguments of {@code varve serve} for server {@code k} of {@code --servers}: its port. */
  List<String> serverArgs(int k) {
    return serveArguments(k).list(spec.commandLine());
  }

  private ServeArguments serveArguments() {
    return serveArguments(1);
  }

  private ServeArguments serveArguments(int k) {
    UpInstance instance = instance();
    return new ServeArguments(
        instance.port(k),
        instance.cqlPort(),
        opensearch().map(node -> node.settings().endpoint().toString()).orElse(null),
        config,
        nodes,
        secure);
  }

  private Optional<LocalOpenSearch> opensearch() {
    return noOpenSearch
        ? Optional.empty()
        : Optional.of(Instances.opensearch(instance().opensearchPort()));
  }
}
