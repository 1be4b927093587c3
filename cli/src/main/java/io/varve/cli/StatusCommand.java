package io.varve.cli;

import io.varve.command.ExitStatus;
import io.varve.local.LocalServerStatus;
import io.varve.local.cassandra.LocalCassandra;
import io.varve.local.server.LocalVarveServer;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Says what runs, one line each for Cassandra, OpenSearch and the server, and one per node of the
 * local cluster that {@code up --nodes N} started, if there is one ({@code cassandra node2: running
 * pid=... cql=127.0.0.2:9042}). Exits with {@code OK} when the server and Cassandra (the single
 * node, or every node of the cluster) run, {@code COMPLETED_WITH_ERRORS} otherwise; OpenSearch does
 * not count, as {@code up --no-opensearch} leaves it out.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Say whether the Varve server and the local Cassandra and OpenSearch run.")
final class StatusCommand implements Callable<Integer> {

  @Mixin InstanceOptions instance;

  @Override
  public Integer call() {
    LocalNode cassandra =
        LocalNode.cassandra(Instances.cassandra(instance.cqlPort, Instances.upIsSecure()));
    System.out.println(cassandra.describe());
    List<LocalCassandra> cluster = Instances.clusterOnDisk(instance.cqlPort);
    boolean clusterUp = !cluster.isEmpty();
    for (int n = 1; n <= cluster.size(); n++) {
      LocalNode node = LocalNode.clusterNode(cluster.get(n - 1), n);
      System.out.println(node.describe());
      clusterUp &= node.isRunning();
    }
    System.out.println(
        LocalNode.opensearch(Instances.opensearch(instance.opensearchPort)).describe());
    LocalVarveServer server = Instances.server(instance.port, List.of(), Instances.upIsSecure());
    LocalServerStatus status = server.status();
    boolean serverUp = status.isRunning() && server.isReady();
    String api = server.settings().endpoint().toString();
    System.out.println(
        "varve: "
            + (serverUp
                ? "running pid=" + status.pid() + " api=" + api + " docs=" + api + "/docs/"
                : "not running"));
    boolean cassandraUp = cassandra.isRunning() || clusterUp;
    return (cassandraUp && serverUp ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }
}
