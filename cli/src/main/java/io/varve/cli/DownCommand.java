package io.varve.cli;

import io.varve.command.ExitStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Stops the Varve server, then the local Cassandra and OpenSearch; keeps their data. */
@Command(
    name = "down",
    mixinStandardHelpOptions = true,
    description = "Stop the Varve server and the local Cassandra and OpenSearch.")
final class DownCommand implements Callable<Integer> {

  @Mixin InstanceOptions instance;

  @Override
  public Integer call() throws Exception {
    boolean server = Instances.server(instance.port, List.of()).stop(Duration.ofSeconds(30));
    System.out.println("varve: " + (server ? "stopped" : "was not running"));
    for (LocalNode node :
        List.of(
            LocalNode.cassandra(Instances.cassandra(instance.cqlPort)),
            LocalNode.opensearch(Instances.opensearch(instance.opensearchPort)))) {
      System.out.println(node.name() + ": " + (node.stop() ? "stopped" : "was not running"));
    }
    return ExitStatus.OK.code();
  }
}
