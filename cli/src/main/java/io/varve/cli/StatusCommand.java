package io.varve.cli;

import io.varve.command.ExitStatus;
import io.varve.local.cassandra.LocalCassandra;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Says what runs of the instance that the last {@code up} recorded (a port given on the command
 * line overrides the recorded one), one line each for Cassandra, OpenSearch and each server ({@code
 * varve}, {@code varve server2} ... with {@code up --servers N}) with the address it is asked at,
 * and one per node of the local cluster that {@code up --nodes N} started, if there is one ({@code
 * cassandra node2: running pid=... cql=127.0.0.2:9042}). A pid file naming a process that this home
 * did not start is reported stale, never as running. Exits with {@code OK} when every server and
 * Cassandra (the single node, or every node of the cluster) run, {@code COMPLETED_WITH_ERRORS}
 * otherwise; OpenSearch does not count, as {@code up --no-opensearch} leaves it out.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description =
        "Say whether the Varve server and the local Cassandra and OpenSearch run, on the ports the"
            + " last up recorded.")
final class StatusCommand implements Callable<Integer> {

  @Mixin InstanceOptions options;

  @Override
  public Integer call() {
    UpInstance instance = options.over(Instances.lastUp());
    LocalNode cassandra =
        LocalNode.cassandra(Instances.cassandra(instance.cqlPort(), instance.secure()));
    LocalNode.Seen node = cassandra.look();
    System.out.println(cassandra.describe(node));
    List<LocalCassandra> cluster = Instances.clusterNodes(instance);
    boolean clusterUp = !cluster.isEmpty();
    for (int n = 1; n <= cluster.size(); n++) {
      LocalNode member = LocalNode.clusterNode(cluster.get(n - 1), n);
      LocalNode.Seen seen = member.look();
      System.out.println(member.describe(seen));
      clusterUp &= seen.status().isRunning();
    }
    System.out.println(
        LocalNode.opensearch(Instances.opensearch(instance.opensearchPort())).describe());
    boolean serversUp = true;
    for (LocalNode server : Instances.serverNodes(instance)) {
      LocalNode.Seen seen = server.look();
      System.out.println(
          server.describe(seen) + (seen.isUp() ? " docs=" + server.address() + "/docs/" : ""));
      serversUp &= seen.isUp();
    }
    boolean cassandraUp = node.status().isRunning() || clusterUp;
    return (cassandraUp && serversUp ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS).code();
  }
}
