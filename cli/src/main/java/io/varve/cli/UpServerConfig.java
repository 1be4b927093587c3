package io.varve.cli;

import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.cassandra.LocalCassandraSettings;
import java.net.InetSocketAddress;
import java.util.stream.Collectors;

/**
 * The server configuration that {@code varve up} writes when the local Cassandra is more than the
 * single node it can name on the command line: the server reads it as any configuration file, so
 * what it runs with is written down for the operator to read ({@code .varve/server/up.yaml}).
 */
final class UpServerConfig {

  private UpServerConfig() {}

  /**
   * The {@code cassandra} section for a local cluster: every node as a contact point (the driver
   * finds the others from any one, but starts from whichever answers), its data center, and the
   * replication of the keyspaces the server creates, so that a quorum survives one node down.
   */
  static String yaml(LocalCassandraCluster cluster) {
    String contactPoints =
        cluster.contactPoints().stream()
            .map(UpServerConfig::hostAndPort)
            .collect(Collectors.joining(", ", "[", "]"));
    return String.join(
        "\n",
        "# Written by ./varve up at each start; edits are overwritten.",
        "cassandra:",
        "  contactPoints: " + contactPoints,
        "  localDatacenter: " + LocalCassandraSettings.DATACENTER,
        "  replication: {class: SimpleStrategy, replication_factor: "
            + cluster.replicationFactor()
            + "}",
        "");
  }

  private static String hostAndPort(InetSocketAddress address) {
    return "\"" + address.getHostString() + ":" + address.getPort() + "\"";
  }
}
