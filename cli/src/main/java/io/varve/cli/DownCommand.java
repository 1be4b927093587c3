package io.varve.cli;

import io.varve.command.ExitStatus;
import io.varve.local.cassandra.LocalCassandra;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Stops the Varve server, then the local Cassandra (the single node and every node of the local
 * cluster, if any) and OpenSearch; keeps their data. One line each: {@code cassandra: stopped
 * pid=... cql=127.0.0.1:9042}, {@code was not running}, or, for a pid file that names a process
 * this home did not start, that the stale file was removed and nothing signalled.
 */
@Command(
    name = "down",
    mixinStandardHelpOptions = true,
    description = "Stop the Varve server and the local Cassandra and OpenSearch.")
final class DownCommand implements Callable<Integer> {

  @Mixin InstanceOptions instance;

  @Override
  public Integer call() {
    boolean secure = Instances.upIsSecure();
    List<LocalNode> nodes = new ArrayList<>();
    nodes.add(LocalNode.server(Instances.server(instance.port, List.of(), secure)));
    nodes.add(LocalNode.cassandra(Instances.cassandra(instance.cqlPort, secure)));
    List<LocalCassandra> cluster = Instances.clusterOnDisk(instance.cqlPort);
    // the seed, node 1, last
    for (int n = cluster.size(); n >= 1; n--) {
      nodes.add(LocalNode.clusterNode(cluster.get(n - 1), n));
    }
    nodes.add(LocalNode.opensearch(Instances.opensearch(instance.opensearchPort)));
    for (LocalNode node : nodes) {
      System.out.println(node.stop());
    }
    return ExitStatus.OK.code();
  }
}
