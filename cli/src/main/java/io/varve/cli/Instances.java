package io.varve.cli;

import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.cassandra.LocalCassandraSecurity;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.opensearch.LocalOpenSearchSettings;
import io.varve.local.server.LocalVarveServer;
import io.varve.local.server.LocalVarveServerSettings;
import io.varve.local.server.SecureApi;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;

/**
 * The local Cassandra, OpenSearch and server that {@code up}, {@code down} and {@code status}
 * manage.
 */
final class Instances {

  static final int DEFAULT_PORT = 8080;

  /** The API address of the server that {@code varve up} starts on its default port. */
  static final String DEFAULT_SERVER = "http://127.0.0.1:" + DEFAULT_PORT;

  private Instances() {}

  static Path home() {
    return VarveHome.locate();
  }

  /**
   * The developer's single node ({@code .varve/cassandra}) with this CQL port; {@code secure}: with
   * TLS and passwords ({@link #security()}).
   */
  static LocalCassandra cassandra(int cqlPort, boolean secure) {
    return cluster(cqlPort, 1, secure).node(1);
  }

  /**
   * The developer's cluster of {@code nodes} nodes ({@code .varve/cassandra-cluster/node<n>} on
   * 127.0.0.1..n) with this CQL port and the default storage and JMX ports; one node is the single
   * node of {@link #cassandra(int, boolean)}.
   */
  static LocalCassandraCluster cluster(int cqlPort, int nodes, boolean secure) {
    LocalCassandraSettings defaults = LocalCassandraSettings.forDevelopment(home());
    return cluster(cqlPort, defaults.storagePort(), defaults.jmxPort(), nodes, secure);
  }

  /**
   * As {@link #cluster(int, int, boolean)}, with these storage and JMX ports (node {@code n}'s JMX
   * port is {@code jmxPort + n - 1}).
   */
  static LocalCassandraCluster cluster(
      int cqlPort, int storagePort, int jmxPort, int nodes, boolean secure) {
    LocalCassandraSettings first =
        nodes == 1
            ? LocalCassandraSettings.forDevelopment(home())
            : LocalCassandraCluster.developmentTemplate(home());
    first = first.withPorts(cqlPort, storagePort, jmxPort);
    return LocalCassandraCluster.of(secure ? first.withSecurity(security()) : first, nodes);
  }

  /**
   * The certificates, stores, passwords and API token of {@code up --secure}, generated on first
   * use: {@code .varve/secure}.
   */
  static LocalCassandraSecurity security() {
    return LocalCassandraSecurity.forDevelopment(home());
  }

  /**
   * Whether the last {@code up} was {@code up --secure}, so that {@code status} asks the servers
   * over TLS: {@code .varve/server/secure} exists.
   */
  static boolean upIsSecure() {
    return Files.exists(secureMarker());
  }

  /** Records whether this {@code up} is {@code up --secure}, for {@link #upIsSecure()}. */
  static void markSecure(boolean secure) throws IOException {
    if (secure) {
      Files.createDirectories(serverHome());
      Files.writeString(
          secureMarker(),
          "./varve up --secure runs here: the server serves TLS and asks for the token of "
              + security().apiTokenFile()
              + "; the local Cassandra takes TLS and passwords.\n");
    } else {
      Files.deleteIfExists(secureMarker());
    }
  }

  private static Path secureMarker() {
    return serverHome().resolve("secure");
  }

  /**
   * The developer's cluster as {@code up --nodes N} left it on disk, for {@code status} and {@code
   * down}: as many nodes as {@code .varve/cassandra-cluster} has {@code node<n>} directories; none
   * if it has none.
   */
  static List<LocalCassandra> clusterOnDisk(int cqlPort) {
    Path directory = LocalCassandraCluster.developmentTemplate(home()).home();
    if (!Files.isDirectory(directory)) {
      return List.of();
    }
    try (Stream<Path> entries = Files.list(directory)) {
      int nodes =
          (int)
              entries
                  .filter(Files::isDirectory)
                  .filter(p -> p.getFileName().toString().matches("node[1-9]"))
                  .count();
      return nodes < 2 ? List.of() : cluster(cqlPort, nodes, upIsSecure()).nodes();
    } catch (IOException e) {
      throw new UncheckedIOException("Cannot list " + directory, e);
    }
  }

  /**
   * The development OpenSearch ({@code .varve/opensearch}) on this REST port and that port plus 100
   * for transport.
   */
  static LocalOpenSearch opensearch(int httpPort) {
    LocalOpenSearchSettings settings = LocalOpenSearchSettings.forDevelopment(home());
    return new LocalOpenSearch(
        httpPort == settings.httpPort()
            ? settings
            : new LocalOpenSearchSettings(
                settings.home(),
                settings.libDirectory(),
                httpPort,
                httpPort + 100,
                settings.heapSize(),
                settings.javaExecutable()));
  }

  /** The directory of the server of {@code varve up}: {@code .varve/server}. */
  static Path serverHome() {
    return LocalVarveServerSettings.forDevelopment(home()).home();
  }

  /**
   * The server of {@code varve up} ({@code .varve/server}) on this API port, with these arguments
   * of {@code serve}; {@code secure}: serving TLS only with the certificate of {@link #security()}
   * and asking for its token.
   */
  static LocalVarveServer server(int port, List<String> serveArgs, boolean secure) {
    LocalVarveServerSettings settings =
        LocalVarveServerSettings.forDevelopment(home()).withPort(port).withServeArgs(serveArgs);
    if (secure) {
      LocalCassandraSecurity security = security();
      settings = settings.withSecureApi(new SecureApi(security.caPem(), security.apiTokenFile()));
    }
    return new LocalVarveServer(settings);
  }
}
