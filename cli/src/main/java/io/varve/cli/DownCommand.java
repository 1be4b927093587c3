package io.varve.cli;

import java.time.Duration;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Stops the Varve server and the local Cassandra. */
@Command(name = "down", mixinStandardHelpOptions = true, description = "Stop the Varve server and the local Cassandra.")
final class DownCommand implements Callable<Integer> {

  @Mixin
  InstanceOptions instance;

  @Override
  public Integer call() throws Exception {
    boolean server = Instances.server(instance.port).stop(Duration.ofSeconds(30));
    System.out.println("varve: " + (server ? "stopped" : "was not running"));
    boolean cassandra = Instances.cassandra(instance.cqlPort).stop(Duration.ofSeconds(60));
    System.out.println("cassandra: " + (cassandra ? "stopped" : "was not running"));
    return 0;
  }
}
