package io.varve.cli;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine;

/**
 * The arguments of {@code varve serve} for the server that {@code varve up} runs in the background.
 * The plain single node is named on the command line ({@code --cassandra}); a cluster, or a node
 * with TLS and passwords, needs more than options can say, so the server then reads the file that
 * {@code up} writes, {@code .varve/server/up.yaml} ({@link UpServerConfig}).
 *
 * @param port the server's API port
 * @param cqlPort the local Cassandra's CQL port
 * @param opensearch the local OpenSearch's endpoint; null without OpenSearch
 * @param config the user's configuration file ({@code --config}); null for none
 * @param nodes how many Cassandra nodes run
 * @param secure whether Cassandra and the API take TLS and credentials
 */
record ServeArguments(
    int port, int cqlPort, String opensearch, String config, int nodes, boolean secure) {

  /** The file {@code up} writes for a cluster or with {@code --secure}. */
  static Path configFile() {
    return Instances.serverHome().resolve("up.yaml");
  }

  /** Whether the server gets {@link #configFile()}: for a cluster, or with TLS and passwords. */
  boolean writesServerConfig() {
    return nodes > 1 || secure;
  }

  /**
   * The arguments: the port, the local nodes or {@link #configFile()}, OpenSearch, the user's file.
   *
   * @throws CommandLine.ParameterException with a cluster or {@code --secure}, if the user gave a
   *     file of their own: it would have to hold what {@code up} writes
   */
  List<String> list(CommandLine commandLine) {
    List<String> args = new ArrayList<>(List.of("--port", Integer.toString(port)));
    if (writesServerConfig()) {
      requireNoConfig(commandLine);
    } else {
      args.add("--cassandra");
      args.add("127.0.0.1:" + cqlPort);
    }
    if (opensearch != null) {
      args.add("--opensearch");
      args.add(opensearch);
    }
    String file = writesServerConfig() ? configFile().toString() : config;
    if (file != null) {
      args.add("--config");
      args.add(file);
    }
    return args;
  }

  private void requireNoConfig(CommandLine commandLine) {
    if (config == null) {
      return;
    }
    boolean cluster = nodes > 1;
    throw new CommandLine.ParameterException(
        commandLine,
        "--config cannot be combined with "
            + (cluster ? "--nodes" : "--secure")
            + ": up writes the server's configuration for it (contact points, replication, TLS"
            + " and credentials); start Cassandra with `./varve local cassandra start "
            + (cluster ? "--nodes N" : "--secure")
            + "` and `./varve serve --config` a file of your own (local/README.md)");
  }
}
