package io.varve.cli;

import io.varve.command.ExitStatus;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * Stops the Varve server, then the local Cassandra (the single node and every node of the local
 * cluster, if any) and OpenSearch of the instance that the last {@code up} recorded (a port given
 * on the command line overrides the recorded one); keeps their data. One line each: {@code
 * cassandra: stopped pid=... cql=127.0.0.1:9042}, {@code was not running}, or, for a pid file that
 * names a process this home did not start, that the stale file was removed and nothing signalled.
 */
@Command(
    name = "down",
    mixinStandardHelpOptions = true,
    description =
        "Stop the Varve server and the local Cassandra and OpenSearch that the last up started.")
final class DownCommand implements Callable<Integer> {

  @Mixin InstanceOptions options;

  @Override
  public Integer call() {
    UpInstance instance = options.over(Instances.lastUp());
    for (LocalNode node : Instances.nodes(instance)) {
      System.out.println(node.stop());
    }
    return ExitStatus.OK.code();
  }
}
