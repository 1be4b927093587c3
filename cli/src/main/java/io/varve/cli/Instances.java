package io.varve.cli;

import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.opensearch.LocalOpenSearchSettings;
import io.varve.local.server.LocalVarveServer;
import io.varve.local.server.LocalVarveServerSettings;
import java.nio.file.Path;
import java.util.List;

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

  /**
   * The server of {@code varve up} ({@code .varve/server}) on this API port, with these arguments
   * of {@code serve}.
   */
  static LocalVarveServer server(int port, List<String> serveArgs) {
    return new LocalVarveServer(
        LocalVarveServerSettings.forDevelopment(home()).withPort(port).withServeArgs(serveArgs));
  }
}
