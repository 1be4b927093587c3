package io.varve.cli;

import io.varve.local.VarveHome;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.cassandra.LocalCassandraSettings;
import io.varve.local.opensearch.LocalOpenSearch;
import io.varve.local.opensearch.LocalOpenSearchSettings;
import java.nio.file.Path;

/** The local Cassandra, OpenSearch and server that {@code up}, {@code down} and {@code status} manage. */
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
    return new LocalCassandra(cqlPort == settings.cqlPort() ? settings : settings.withCqlPort(cqlPort));
  }

  /** The development OpenSearch ({@code .varve/opensearch}) on this REST port and that port plus 100 for transport. */
  static LocalOpenSearch opensearch(int httpPort) {
    LocalOpenSearchSettings settings = LocalOpenSearchSettings.forDevelopment(home());
    return new LocalOpenSearch(httpPort == settings.httpPort() ? settings
        : new LocalOpenSearchSettings(settings.home(), settings.libDirectory(), httpPort, httpPort + 100,
            settings.heapSize(), settings.javaExecutable()));
  }

  static ServerProcess server(int port) {
    return new ServerProcess(home(), port);
  }
}
