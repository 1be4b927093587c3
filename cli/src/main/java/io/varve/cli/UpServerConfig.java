package io.varve.cli;

import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.cassandra.LocalCassandraSettings;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The server configuration that {@code varve up} writes when the local Cassandra is more than the
 * plain single node it can name on the command line (a cluster, or a node with TLS and passwords):
 * the server reads it as any configuration file, so what it runs with is written down for the
 * operator to read ({@code .varve/server/up.yaml}).
 */
final class UpServerConfig {

  /** The name of the token of {@code up --secure} in the server's log lines and errors. */
  static final String TOKEN_NAME = "varve-up";

  private UpServerConfig() {}

  /**
   * The configuration for these nodes. Always their {@code cassandra} section: every node as a
   * contact point (the driver finds the others from any one, but starts from whichever answers),
   * its data center, and the replication of the keyspaces the server creates, so that a quorum
   * survives one node down. With nodes that take TLS and passwords, also the role and its password,
   * the truststore of their authority (hostname validation stays on: the nodes' certificate names
   * their addresses), and a {@code server} section serving the API over TLS with the nodes'
   * certificate, behind the generated token, read from its file.
   */
  static String yaml(LocalCassandraCluster cluster) {
    String contactPoints =
        cluster.contactPoints().stream()
            .map(UpServerConfig::hostAndPort)
            .collect(Collectors.joining(", ", "[", "]"));
    Optional<LocalCassandraSecurity> security = cluster.node(1).settings().security();
    List<String> lines = new ArrayList<>();
    lines.add("# Written by ./varve up at each start; edits are overwritten.");
    security.ifPresent(s -> lines.addAll(server(s)));
    lines.add("cassandra:");
    lines.add("  contactPoints: " + contactPoints);
    lines.add("  localDatacenter: " + LocalCassandraSettings.DATACENTER);
    lines.add(
        "  replication: {class: SimpleStrategy, replication_factor: "
            + cluster.replicationFactor()
            + "}");
    security.ifPresent(s -> lines.addAll(cassandraCredentials(s)));
    lines.add("");
    return String.join("\n", lines);
  }

  /**
   * Writes {@code yaml} to {@code file}, readable by its owner only: with {@code --secure} it holds
   * the role's and the truststore's passwords.
   */
  static void write(Path file, String yaml) throws IOException {
    Files.createDirectories(file.getParent());
    Files.deleteIfExists(file);
    Files.createFile(
        file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
    Files.writeString(file, yaml);
  }

  private static List<String> server(LocalCassandraSecurity security) {
    return List.of(
        "server:",
        "  tls:",
        "    certificateChain: " + quoted(security.certificateChainPem()),
        "    privateKey: " + quoted(security.privateKeyPem()),
        "  auth:",
        "    tokens:",
        "      - name: " + TOKEN_NAME,
        "        tokenFile: " + quoted(security.apiTokenFile()),
        "        permissions: [read, write, admin, metrics, docs]",
        "        namespaces: [\"*\"]");
  }

  private static List<String> cassandraCredentials(LocalCassandraSecurity security) {
    return List.of(
        "  username: " + LocalCassandraSecurity.ROLE,
        "  password: " + quoted(security.rolePassword()),
        "  tls:",
        "    truststore: " + quoted(security.truststore()),
        "    truststorePassword: " + quoted(security.storePassword()),
        "    hostnameValidation: true");
  }

  private static String hostAndPort(InetSocketAddress address) {
    return "\"" + address.getHostString() + ":" + address.getPort() + "\"";
  }

  /** A YAML double-quoted scalar: a path may hold any character. */
  private static String quoted(Object value) {
    return "\"" + value.toString().replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
  }
}
