package io.varve.cli;

import io.varve.command.ExitStatus;
import io.varve.local.cassandra.LocalCassandra;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Stops the Varve server, then the local Cassandra (the single node and every node of the local
 * cluster, if any) and OpenSearch; keeps their data.
 */
@Command(
    name = "down",
    mixinStandardHelpOptions = true,
    description = "Stop the Varve server and the local Cassandra and OpenSearch.")
final class DownCommand implements Callable<Integer> {

  @Mixin InstanceOptions instance;

  @Override
  public Integer call() throws Exception {
    boolean server =
        Instances.server(instance.port, List.of(), Instances.upIsSecure())
            .stop(Duration.ofSeconds(30));
    System.out.println("varve: " + (server ? "stopped" : "was not running"));
    List<LocalNode> nodes = new ArrayList<>();
    nodes.add(LocalNode.cassandra(Instances.cassandra(instance.cqlPort, Instances.upIsSecure())));
    List<LocalCassandra> cluster = Instances.clusterOnDisk(instance.cqlPort);
    // the seed, node 1, last
    for (int n = cluster.size(); n >= 1; n--) {
      nodes.add(LocalNode.clusterNode(cluster.get(n - 1), n));
    }
    nodes.add(LocalNode.opensearch(Instances.opensearch(instance.opensearchPort)));
    for (LocalNode node : nodes) {
      System.out.println(node.name() + ": " + (node.stop() ? "stopped" : "was not running"));
    }
    return ExitStatus.OK.code();
  }
}
