package io.varve.cli;

import io.varve.command.ExitStatus;
import io.varve.local.LocalServerStatus;
import io.varve.local.server.LocalVarveServer;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Says what runs, one line each for Cassandra, OpenSearch and the server. Exits with {@code OK}
 * when the server and Cassandra run, {@code COMPLETED_WITH_ERRORS} otherwise; OpenSearch does not
 * count, as {@code up --no-opensearch} leaves it out.
 */
@Command(
    name = "status",
    mixinStandardHelpOptions = true,
    description = "Say whether the Varve server and the local Cassandra and OpenSearch run.")
final class StatusCommand implements Callable<Integer> {

  @Mixin InstanceOptions instance;

  @Override
  public Integer call() {
    LocalNode cassandra = LocalNode.cassandra(Instances.cassandra(instance.cqlPort));
    System.out.println(cassandra.describe());
    System.out.println(
        LocalNode.opensearch(Instances.opensearch(instance.opensearchPort)).describe());
    LocalVarveServer server = Instances.server(instance.port, List.of());
    LocalServerStatus status = server.status();
    boolean serverUp = status.isRunning() && server.isReady();
    String api = server.settings().endpoint().toString();
    System.out.println(
        "varve: "
            + (serverUp
                ? "running pid=" + status.pid() + " api=" + api + " docs=" + api + "/docs/"
                : "not running"));
    return (cassandra.isRunning() && serverUp ? ExitStatus.OK : ExitStatus.COMPLETED_WITH_ERRORS)
        .code();
  }
}
