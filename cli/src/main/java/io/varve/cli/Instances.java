package io.varve.cli;

import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraCluster;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.opensearch.LocalOpenSearchSettings;
import io.varve.local.server.LocalVarveServer;
import io.varve.local.server.LocalVarveServerSettings;
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

  static LocalCassandra cassandra(int cqlPort) {
    LocalCassandraSettings settings = LocalCassandraSettings.forDevelopment(home());
    return new LocalCassandra(
        cqlPort == settings.cqlPort() ? settings : settings.withCqlPort(cqlPort));
  }

  /**
   * The developer's cluster of {@code nodes} nodes ({@code .varve/cassandra-cluster/node<n>} on
   * 127.0.0.1..n) with this CQL port; one node is the single node of {@link #cassandra(int)}.
   */
  static LocalCassandraCluster cluster(int cqlPort, int nodes) {
    if (nodes == 1) {
      return LocalCassandraCluster.of(cassandra(cqlPort).settings(), 1);
    }
    return LocalCassandraCluster.of(
        LocalCassandraCluster.developmentTemplate(home()).withCqlPort(cqlPort), nodes);
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
      return nodes < 2 ? List.of() : cluster(cqlPort, nodes).nodes();
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
   * of {@code serve}.
   */
  static LocalVarveServer server(int port, List<String> serveArgs) {
    return new LocalVarveServer(
        LocalVarveServerSettings.forDevelopment(home()).withPort(port).withServeArgs(serveArgs));
  }
}
