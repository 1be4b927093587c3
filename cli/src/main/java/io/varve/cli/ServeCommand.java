package io.varve.cli;

import io.varve.cassandra.session.CassandraSettings;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the server in the foreground until stopped (SIGTERM / Ctrl-C stop it gracefully). */
@Command(name = "serve", mixinStandardHelpOptions = true, description = "Run the Varve server in the foreground.")
final class ServeCommand implements Callable<Integer> {

  @Option(names = "--config", description = "Server configuration file (YAML); defaults apply without it.")
  Path config;

  @Option(names = "--port", description = "Port to listen on (overrides the configuration).")
  Integer port;

  @Option(names = "--cassandra", description = "Cassandra contact point host:port (overrides the configuration).")
  String cassandra;

  @Override
  public Integer call() {
    ServerSettings settings = settings(config, port, cassandra);
    VarveServer server = VarveServer.start(settings);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "varve-shutdown"));
    server.awaitTermination();
    return 0;
  }

  static ServerSettings settings(Path config, Integer port, String cassandra) {
    ServerSettings settings = config == null ? ServerSettings.defaults() : ServerSettings.load(config);
    if (port != null) {
      settings = settings.withPort(port);
    }
    if (cassandra != null) {
      CassandraSettings c = settings.cassandra().withContactPoints(List.of(
          ServerSettings.contactPoint("--cassandra", cassandra)));
      settings = settings.withCassandra(c);
    }
    return settings;
  }
}
