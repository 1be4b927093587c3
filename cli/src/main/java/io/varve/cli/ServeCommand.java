package io.varve.cli;

import io.varve.cassandra.session.CassandraSettings;
import io.varve.command.ExitStatus;
import io.varve.server.VarveServer;
import io.varve.server.config.ServerSettings;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Runs the server in the foreground until stopped (SIGTERM / Ctrl-C stop it gracefully). */
@Command(
    name = "serve",
    mixinStandardHelpOptions = true,
    description = "Run the Varve server in the foreground.")
final class ServeCommand implements Callable<Integer> {

  @Option(
      names = "--config",
      description = "Server configuration file (YAML); defaults apply without it.")
  Path config;

  @Option(names = "--port", description = "Port to listen on (overrides the configuration).")
  Integer port;

  @Option(
      names = "--cassandra",
      description = "Cassandra contact point host:port (overrides the configuration).")
  String cassandra;

  @Option(
      names = "--opensearch",
      split = ",",
      paramLabel = "URL",
      description =
          "OpenSearch endpoints http(s)://host:port, comma-separated: the index store of search"
              + " (overrides opensearch.urls).")
  List<String> opensearch;

  @Override
  public Integer call() {
    ServerSettings settings = settings(config, port, cassandra, opensearch);
    VarveServer server = VarveServer.start(settings);
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "varve-shutdown"));
    server.awaitTermination();
    return ExitStatus.OK.code();
  }

  /**
   * The configuration file's settings (or the defaults) with the command line's overrides; null:
   * not overridden.
   *
   * @throws io.varve.core.error.InvalidFieldException naming the option of a malformed value
   */
  static ServerSettings settings(
      Path config, Integer port, String cassandra, List<String> opensearch) {
    ServerSettings settings =
        config == null ? ServerSettings.defaults() : ServerSettings.load(config);
    if (port != null) {
      settings = settings.toBuilder().port(port).build();
    }
    if (cassandra != null) {
      CassandraSettings c =
          settings
              .cassandra()
              .withContactPoints(List.of(ServerSettings.contactPoint("--cassandra", cassandra)));
      settings = settings.toBuilder().cassandra(c).build();
    }
    if (opensearch != null) {
      settings =
          settings.toBuilder()
              .openSearchUrls(
                  opensearch.stream().map(url -> ServerSettings.url("--opensearch", url)).toList())
              .build();
    }
    return settings;
  }
}
