package io.varve.server;

import io.varve.cassandra.session.CassandraSettings;
import io.varve.server.config.ServerSettings;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;

/**
 * A Varve server in a process of its own, for {@link KeyValueChunkCrashIT} to kill: arguments are
 * the Cassandra contact point ({@code host:port}), the metadata keyspace and a file to write the
 * server's port to once it serves.
 */
public final class ChunkCrashServerMain {

  private ChunkCrashServerMain() {}

  public static void main(String[] args) throws Exception {
    String[] hostPort = args[0].split(":");
    ServerSettings base = ServerSettings.defaults();
    CassandraSettings c =
        base.cassandra()
            .withContactPoints(
                List.of(new InetSocketAddress(hostPort[0], Integer.parseInt(hostPort[1]))))
            .withMetadataKeyspace(args[1]);
    VarveServer server = VarveServer.start(base.withCassandra(c).withPort(0), Clock.systemUTC());
    Path ready = Path.of(args[2]);
    Path partial = ready.resolveSibling(ready.getFileName() + ".tmp");
    Files.writeString(partial, Integer.toString(server.port()));
    Files.move(partial, ready);
    Thread.currentThread().join();
  }
}
