package io.varve.cli;

import io.varve.local.LocalCassandra;
import io.varve.local.LocalCassandraSettings;
import io.varve.local.VarveHome;
import java.nio.file.Path;

/** The local Cassandra and server that {@code up}, {@code down} and {@code status} manage. */
final class Instances {

  static final int DEFAULT_PORT = 8080;

  private Instances() {}

  static Path home() {
    return VarveHome.locate();
  }

  static LocalCassandra cassandra(int cqlPort) {
    LocalCassandraSettings settings = LocalCassandraSettings.forDevelopment(home());
    return new LocalCassandra(cqlPort == settings.cqlPort() ? settings : settings.withCqlPort(cqlPort));
  }

  static ServerProcess server(int port) {
    return new ServerProcess(home(), port);
  }
}
