package io.varve.cli;

import io.varve.local.CassandraStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** Says what runs. Exit code 0 when both the server and Cassandra run, 3 otherwise. */
@Command(name = "status", mixinStandardHelpOptions = true, description = "Say whether the Varve server and the local Cassandra run.")
final class StatusCommand implements Callable<Integer> {

  @Mixin
  InstanceOptions instance;

  @Override
  public Integer call() {
    CassandraStatus cassandra = Instances.cassandra(instance.cqlPort).status();
    ServerProcess server = Instances.server(instance.port);
    boolean serverUp = server.running().isPresent() && server.healthy();
    System.out.println("cassandra: " + (cassandra.isRunning() ? "running pid=" + cassandra.pid() + " cql="
        + cassandra.cqlAddress().getHostString() + ":" + cassandra.cqlAddress().getPort() : cassandra.state().name().toLowerCase()));
    System.out.println("varve: " + (serverUp ? "running pid=" + server.running().get().pid() + " api="
        + server.apiAddress() + " docs=" + server.apiAddress() + "/docs/" : "not running"));
    return cassandra.isRunning() && serverUp ? 0 : 3;
  }
}
