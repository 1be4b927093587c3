package io.varve.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/** Stops the Varve server and the local Cassandra. */
@Command(name = "down", description = "Stop the Varve server and the local Cassandra.")
final class DownCommand implements Callable<Integer> {

  @Option(names = "--port", defaultValue = "8080", description = "Port of the Varve server (default: ${DEFAULT-VALUE}).")
  int port;

  @Option(names = "--cql-port", defaultValue = "9042", description = "CQL port of the local Cassandra (default: ${DEFAULT-VALUE}).")
  int cqlPort;

  @Override
  public Integer call() throws Exception {
    boolean server = Instances.server(port).stop(Duration.ofSeconds(30));
    System.out.println("varve: " + (server ? "stopped" : "was not running"));
    boolean cassandra = Instances.cassandra(cqlPort).stop(Duration.ofSeconds(60));
    System.out.println("cassandra: " + (cassandra ? "stopped" : "was not running"));
    return 0;
  }
}
