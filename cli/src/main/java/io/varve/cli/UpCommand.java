package io.varve.cli;

import io.varve.local.LocalCassandra;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

/** Starts the local Cassandra and the Varve server in the background and waits until both answer. */
@Command(name = "up", mixinStandardHelpOptions = true, description = "Start the local Cassandra and the Varve server in the background.")
final class UpCommand implements Callable<Integer> {

  @Mixin
  InstanceOptions instance;

  @Option(names = "--config", description = "Server configuration file (YAML).")
  String config;

  @Override
  public Integer call() throws Exception {
    LocalCassandra cassandra = Instances.cassandra(instance.cqlPort);
    System.out.println("cassandra: starting (data in " + cassandra.settings().home() + ")");
    cassandra.start();
    cassandra.awaitReady(Duration.ofMinutes(3));
    System.out.println("cassandra: ready at 127.0.0.1:" + instance.cqlPort + " (log "
        + cassandra.settings().systemLog() + ")");
    ServerProcess server = Instances.server(instance.port);
    List<String> args = new ArrayList<>(List.of("--port", Integer.toString(instance.port),
        "--cassandra", "127.0.0.1:" + instance.cqlPort));
    if (config != null) {
      args.add("--config");
      args.add(config);
    }
    server.start(args, Duration.ofMinutes(2));
    System.out.println("varve: ready");
    System.out.println("  API (gRPC and HTTP/JSON POST /v1/<RpcName>): " + server.apiAddress());
    System.out.println("  browsable API page: " + server.apiAddress() + "/docs/");
    System.out.println("  log: " + server.log());
    return 0;
  }
}
